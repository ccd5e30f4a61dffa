package realm

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// The real server's limits on a channel folder's name and description, in characters.
const (
	MaxChannelFolderNameLength        = 60
	MaxChannelFolderDescriptionLength = 1024
)

// channelFolder is a folder the organization sorts channels into.
type channelFolder struct {
	id          int
	name        string
	description string
	creatorID   int
	dateCreated int64
	archived    bool
	order       int
}

// ChannelFolderView is a channel folder as the API shows it; Order from LevelChannelFolderOrder.
type ChannelFolderView struct {
	ID                  int    `json:"id"`
	Name                string `json:"name"`
	Description         string `json:"description"`
	RenderedDescription string `json:"rendered_description"`
	CreatorID           int    `json:"creator_id"`
	DateCreated         int64  `json:"date_created"`
	IsArchived          bool   `json:"is_archived"`
	Order               *int   `json:"order,omitempty"`
}

// ErrNoChannelFolder names a folder that does not exist, in a path or otherwise.
var ErrNoChannelFolder = apierr.BadRequest("Invalid channel folder ID")

// MaxChannelFolders bounds how many folders (archived ones included) a realm may have: the
// fake's own bound (the real server has none), so that a client creating folders in a loop
// cannot grow the fake without end.
const MaxChannelFolders = 1000

// checkFolderExists is the real server's lookup of a folder a channel is put in: any folder of
// the realm, archived ones included; 0 is no folder. The caller holds the lock.
func (s *ChannelState) checkFolderExists(id int) error {
	if id != 0 && s.folders[id] == nil {
		return ErrNoChannelFolder
	}
	return nil
}

// moveToFolder puts a channel in a folder (0: in none) and tells whoever can see the channel,
// even when it was there already, as the real server does. The caller holds the lock.
func (s *ChannelState) moveToFolder(ch *Channel, folderID int) {
	ch.FolderID = folderID
	var value any // null: in no folder
	if folderID != 0 {
		value = folderID
	}
	s.channelUpdate(ch, "folder_id", value)
}

// folderInUse tells whether any channel, archived ones included, is in the folder; the
// caller holds the lock.
func (s *ChannelState) folderInUse(id int) bool {
	for _, ch := range s.channels {
		if ch.FolderID == id {
			return true
		}
	}
	return false
}

func (s *ChannelState) folderView(f *channelFolder) ChannelFolderView {
	v := ChannelFolderView{
		ID: f.id, Name: f.name, Description: f.description, RenderedDescription: s.renderDescription(f.description),
		CreatorID: f.creatorID, DateCreated: f.dateCreated, IsArchived: f.archived,
	}
	if s.atLeast(LevelChannelFolderOrder) {
		order := f.order
		v.Order = &order
	}
	return v
}

// ChannelFolders lists the folders (GET /channel_folders, register's channel_folders), by
// order from LevelChannelFolderOrder and by ID before; archived ones only when asked.
func (s *ChannelState) ChannelFolders(includeArchived bool) []ChannelFolderView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.channelFolderList(includeArchived)
}

func (s *ChannelState) channelFolderList(includeArchived bool) []ChannelFolderView {
	folders := slices.Collect(maps.Values(s.folders))
	slices.SortFunc(folders, func(a, b *channelFolder) int {
		if s.atLeast(LevelChannelFolderOrder) && a.order != b.order {
			return a.order - b.order
		}
		return a.id - b.id
	})
	out := []ChannelFolderView{}
	for _, f := range folders {
		if includeArchived || !f.archived {
			out = append(out, s.folderView(f))
		}
	}
	return out
}

// checkFolderText applies the parameters' length limits, as the real server's typed endpoint does.
func checkFolderText(name, description *string) error {
	if name != nil && utf8.RuneCountInString(*name) > MaxChannelFolderNameLength {
		return apierr.BadRequest("name is too long (limit: %d characters)", MaxChannelFolderNameLength)
	}
	if description != nil && utf8.RuneCountInString(*description) > MaxChannelFolderDescriptionLength {
		return apierr.BadRequest("description is too long (limit: %d characters)", MaxChannelFolderDescriptionLength)
	}
	return nil
}

// checkFolderName applies the real server's rules for a new folder name: not blank, no
// control character (its position, from 1), unique in any case among all folders.
func (s *ChannelState) checkFolderName(name string) error {
	if strings.TrimSpace(name) == "" {
		return apierr.BadRequest("Channel folder name can't be empty.")
	}
	for i, r := range []rune(name) {
		if unicode.IsControl(r) || r == utf8.RuneError || unicode.Is(unicode.Cs, r) {
			return apierr.BadRequest("Invalid character in channel folder name, at position %d.", i+1)
		}
	}
	for _, f := range s.folders {
		if strings.EqualFold(f.name, name) {
			return apierr.BadRequest("Channel folder '%s' already exists", name)
		}
	}
	return nil
}

// CreateChannelFolder adds a folder (POST /channel_folders/create); the caller is an
// administrator. A new folder comes last: its order is its ID, as on the real server.
func (s *ChannelState) CreateChannelFolder(creatorID int, name, description string) (int, error) {
	if err := checkFolderText(&name, &description); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkFolderName(name); err != nil {
		return 0, err
	}
	if len(s.folders) >= MaxChannelFolders {
		return 0, apierr.BadRequest("An organization can have at most %d channel folders.", MaxChannelFolders)
	}
	id := nextID(&s.nextFolder)
	f := &channelFolder{id: id, name: name, description: description, creatorID: creatorID, dateCreated: s.clock.Unix(), order: id}
	s.folders[id] = f
	s.publish(events.Event{"type": "channel_folder", "op": "add", "channel_folder": s.folderView(f)}, s.accts.activeUserIDs()...)
	return id, nil
}

// ChannelFolderChange is what PATCH /channel_folders/{id} sends; nil fields stay.
type ChannelFolderChange struct {
	Name, Description *string
	IsArchived        *bool
}

// UpdateChannelFolder renames, describes, archives or unarchives a folder; the caller is an
// administrator. Each change that changes something sends its own update event, in that
// order, as the real server does; everything is checked first.
func (s *ChannelState) UpdateChannelFolder(id int, ch ChannelFolderChange) error {
	if err := checkFolderText(ch.Name, ch.Description); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.folders[id]
	if f == nil {
		return ErrNoChannelFolder
	}
	rename := ch.Name != nil && *ch.Name != f.name
	if rename {
		if err := s.checkFolderName(*ch.Name); err != nil {
			return err
		}
	}
	if ch.IsArchived != nil && *ch.IsArchived && !f.archived && s.folderInUse(id) {
		return apierr.BadRequest("You need to remove all the channels from this folder to archive it.")
	}
	var updates []map[string]any
	if rename {
		f.name = *ch.Name
		updates = append(updates, map[string]any{"name": f.name})
	}
	if ch.Description != nil && *ch.Description != f.description {
		f.description = *ch.Description
		updates = append(updates, map[string]any{"description": f.description, "rendered_description": s.renderDescription(f.description)})
	}
	if ch.IsArchived != nil && *ch.IsArchived != f.archived {
		f.archived = *ch.IsArchived
		updates = append(updates, map[string]any{"is_archived": f.archived})
	}
	for _, data := range updates {
		s.publish(events.Event{"type": "channel_folder", "op": "update", "channel_folder_id": id, "data": data}, s.accts.activeUserIDs()...)
	}
	return nil
}

// ReorderChannelFolders sets the folders' order (PATCH /channel_folders): each folder, archived
// ones included, takes its index in ids, which must name every folder; IDs of no folder are
// passed over, and a folder named twice takes its last place, as on the real server.
func (s *ChannelState) ReorderChannelFolders(ids []int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	place, err := orderMapping(ids, slices.Collect(maps.Keys(s.folders)))
	if err != nil {
		return err
	}
	for id, f := range s.folders {
		f.order = place[id]
	}
	if s.atLeast(LevelChannelFolderReorderEvent) {
		order := make([]int, 0, len(s.folders))
		for _, f := range s.channelFolderList(true) {
			order = append(order, f.ID)
		}
		s.publish(events.Event{"type": "channel_folder", "op": "reorder", "order": order}, s.accts.activeUserIDs()...)
	}
	return nil
}

// orderMapping is the place of each of the given IDs in a reordering's list, in which every
// one must be (the real server's rule for folders and profile fields alike): IDs of nothing
// are passed over, and one listed twice takes its last place.
func orderMapping(order []int64, ids []int) (map[int]int, error) {
	place := map[int64]int{}
	for i, id := range order {
		place[id] = i
	}
	out := make(map[int]int, len(ids))
	for _, id := range ids {
		i, ok := place[int64(id)]
		if !ok {
			return nil, apierr.BadRequest("Invalid order mapping.")
		}
		out[id] = i
	}
	return out, nil
}
