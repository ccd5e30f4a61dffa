package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/realm"

// createChannelFolder: POST /channel_folders/create — administrators only.
func (s *Server) createChannelFolder(c *call) (fields, error) {
	description := c.p.RequiredString("description")
	name := c.p.RequiredString("name")
	if err := c.done(); err != nil {
		return nil, err
	}
	id, err := s.realm().CreateChannelFolder(c.user.ID, name, description)
	if err != nil {
		return nil, err
	}
	return fields{"channel_folder_id": id}, nil
}

// getChannelFolders: GET /channel_folders — archived folders only when asked for.
func (s *Server) getChannelFolders(c *call) (fields, error) {
	includeArchived := c.p.Bool("include_archived", false)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"channel_folders": s.realm().ChannelFolders(includeArchived)}, nil
}

// updateChannelFolder: PATCH /channel_folders/{channel_folder_id} — administrators only.
func (s *Server) updateChannelFolder(c *call) (fields, error) {
	id, err := c.pathID("channel_folder_id", realm.ErrNoChannelFolder)
	if err != nil {
		return nil, err
	}
	change := realm.ChannelFolderChange{
		Description: optionalString(c, "description"),
		IsArchived:  optionalBool(c, "is_archived"),
		Name:        optionalString(c, "name"),
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().UpdateChannelFolder(id, change)
}

// reorderChannelFolders: PATCH /channel_folders — administrators only.
func (s *Server) reorderChannelFolders(c *call) (fields, error) {
	order := c.p.RequiredIntList("order")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().ReorderChannelFolders(order)
}
