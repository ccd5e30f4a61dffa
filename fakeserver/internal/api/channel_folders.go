package api

import (
	"math"

	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// createChannelFolder: POST /channel_folders/create — administrators only.
func (s *Service) createChannelFolder(c *handler.Call) (handler.Fields, error) {
	description := c.P.RequiredString("description")
	name := c.P.RequiredString("name")
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := s.realm().CreateChannelFolder(c.User.ID, name, description)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"channel_folder_id": id}, nil
}

// getChannelFolders: GET /channel_folders — archived folders only when asked for.
func (s *Service) getChannelFolders(c *handler.Call) (handler.Fields, error) {
	includeArchived := c.P.Bool("include_archived", false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"channel_folders": s.realm().ChannelFolders(includeArchived)}, nil
}

// updateChannelFolder: PATCH /channel_folders/{channel_folder_id} — administrators only.
func (s *Service) updateChannelFolder(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("channel_folder_id", realm.ErrNoChannelFolder)
	if err != nil {
		return nil, err
	}
	change := realm.ChannelFolderChange{
		Description: optionalString(c, "description"),
		IsArchived:  optionalBool(c, "is_archived"),
		Name:        optionalString(c, "name"),
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateChannelFolder(id, change)
}

// reorderChannelFolders: PATCH /channel_folders — administrators only.
func (s *Service) reorderChannelFolders(c *handler.Call) (handler.Fields, error) {
	order := c.P.RequiredIntList("order")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().ReorderChannelFolders(order)
}

// folderIDParam reads folder_id, the channel folder a channel goes in; where allowNull, JSON
// null takes the channel out of its folder (0). Nil when absent. No folder has an ID below 1,
// and 0 means none to the domain, so such an ID is refused here as the lookup would refuse it.
func folderIDParam(c *handler.Call, allowNull bool) *int {
	raw, present := c.P.String("folder_id")
	if !present {
		return nil
	}
	if allowNull && raw == "null" {
		none := 0
		return &none
	}
	n, ok := c.P.Int("folder_id")
	if !ok {
		return nil
	}
	if n < 1 || n > math.MaxInt32 {
		c.P.Fail(realm.ErrNoChannelFolder)
		return nil
	}
	id := int(n)
	return &id
}

// folderOrNone reads the folder_id of a channel being created: a folder's ID, 0 when absent.
func folderOrNone(c *handler.Call) int {
	if id := folderIDParam(c, false); id != nil {
		return *id
	}
	return 0
}
