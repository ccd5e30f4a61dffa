package realm

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// MaxEmojiFileBytes is the real server's default limit on a custom emoji's image (5 MiB).
const MaxEmojiFileBytes = 5 << 20

// customEmoji is an emoji an organization uploaded. Deactivated ones stay listed, as on the
// real server, so that old messages and reactions still show them.
type customEmoji struct {
	id          int
	name        string
	authorID    int
	fileName    string // <id><extension>, under EmojiPathPrefix
	contentType string
	content     []byte
	still       []byte // an animated emoji's still image (PNG), made at upload
	animated    bool
	deactivated bool
}

// EmojiPathPrefix starts the URL of every custom emoji image (the realm's ID is 1).
const EmojiPathPrefix = "/user_avatars/1/emoji/images/"

// RealmEmoji implements GET /realm/emoji and register's realm_emoji: the custom emoji by ID,
// deactivated ones included.
func (s *OrganizationState) RealmEmoji() map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.realmEmojiMap()
}

func (s *OrganizationState) realmEmojiMap() map[string]any {
	out := map[string]any{}
	for _, e := range s.emoji {
		var still any
		if e.animated {
			still = EmojiPathPrefix + "still/" + strconv.Itoa(e.id) + ".png"
		}
		id := strconv.Itoa(e.id)
		out[id] = map[string]any{
			"id": id, "name": e.name, "source_url": EmojiPathPrefix + e.fileName, "still_url": still,
			"deactivated": e.deactivated, "author_id": e.authorID,
		}
	}
	return out
}

var (
	emojiName       = regexp.MustCompile(`^[0-9a-z_-]*[0-9a-z]$`)
	emojiNameLetter = regexp.MustCompile(`^[0-9a-z_-]+$`)
)

// CustomEmojiName is a name as the real server reads it from the path: trimmed, spaces made
// underscores, then held to its rules.
func CustomEmojiName(raw string) (string, error) {
	name := strings.ReplaceAll(strings.TrimSpace(raw), " ", "_")
	switch {
	case name == "":
		return "", apierr.BadRequest("Emoji name is missing")
	case emojiName.MatchString(name):
		return name, nil
	case emojiNameLetter.MatchString(name):
		return "", apierr.BadRequest("Emoji names must end with either a letter or digit.")
	}
	return "", apierr.BadRequest("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.")
}

func (s *OrganizationState) activeEmoji(name string) *customEmoji {
	for _, e := range s.emoji {
		if e.name == name && !e.deactivated {
			return e
		}
	}
	return nil
}

// customEmojiByCode is the custom emoji a reaction's code (its ID) names, active or not.
func (s *OrganizationState) customEmojiByCode(code string) *customEmoji {
	id, err := strconv.Atoi(code)
	if err != nil || strconv.Itoa(id) != code {
		return nil
	}
	return s.emoji[id]
}

// zulipEmojiURL is the extra emoji's image, outside the realm's uploads.
const zulipEmojiURL = "/static/generated/emoji/images/emoji/unicode/zulip.png"

// Emoji implements markdown.Emoji as the real server renders :name:, an active custom emoji
// before the extra emoji before unicode.
func (m mentionUsers) Emoji(name string) (imageURL, code string, ok bool) {
	if e := m.s.org.activeEmoji(name); e != nil {
		return EmojiPathPrefix + e.fileName, "", true
	}
	if zulipExtraEmoji[name] {
		return zulipEmojiURL, "", true
	}
	code, ok = unicodeEmoji[name]
	return "", code, ok
}

// EmojiUpload is one uploaded image.
type EmojiUpload struct {
	FileName, ContentType string
	Content               []byte
}

// AddCustomEmoji adds an emoji (POST /realm/emoji/{emoji_name}) with the one uploaded image,
// in the real server's order of checks; guests and bots were refused before. Only
// administrators may take the name of a built-in emoji. The images of custom emoji, kept in
// memory, count toward the upload quotas with the files (uploadRoom), so that the fake's
// memory stays bounded. The image is measured, and an animated one's still image made, outside
// the lock; the checks that depend on the realm are made again when the emoji is added.
func (s *OrganizationState) AddCustomEmoji(authorID int, rawName string, files []EmojiUpload, quota UploadQuota) error {
	name, err := CustomEmojiName(rawName)
	if err != nil {
		return err
	}
	if err := s.checkEmojiUpload(authorID, name, files, quota); err != nil {
		return err
	}
	f := files[0]
	img, err := checkEmojiImage(f.Content)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkEmojiUploadLocked(authorID, name, files, quota); err != nil {
		return err
	}
	id := nextID(&s.nextEmoji)
	ext := map[string]string{"gif": ".gif", "jpeg": ".jpg", "png": ".png"}[img.format]
	s.emoji[id] = &customEmoji{
		id: id, name: name, authorID: authorID, fileName: fmt.Sprint(id, ext), contentType: "image/" + img.format,
		content: f.Content, still: img.still, animated: img.still != nil,
	}
	s.publishRealmEmoji()
	return nil
}

func (s *OrganizationState) checkEmojiUpload(authorID int, name string, files []EmojiUpload, quota UploadQuota) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.checkEmojiUploadLocked(authorID, name, files, quota)
}

// checkEmojiUploadLocked makes the checks before the image's own, under the caller's lock.
func (s *OrganizationState) checkEmojiUploadLocked(authorID int, name string, files []EmojiUpload, quota UploadQuota) error {
	if s.activeEmoji(name) != nil {
		return apierr.BadRequest("A custom emoji with this name already exists.")
	}
	if len(files) != 1 {
		return apierr.BadRequest("You must upload exactly one file.")
	}
	_, builtIn := unicodeEmoji[name]
	if (builtIn || zulipExtraEmoji[name]) && !s.accts.users[authorID].IsAdmin() {
		return apierr.BadRequest("Only administrators can override built-in emoji.")
	}
	f := files[0]
	if len(f.Content) > MaxEmojiFileBytes {
		return apierr.BadRequest("Uploaded file is larger than the allowed limit of %d MiB", MaxEmojiFileBytes>>20)
	}
	if err := s.uploads.uploadRoom(authorID, int64(len(f.Content)), quota); err != nil {
		return err
	}
	return nil
}

// RemoveCustomEmoji deactivates an emoji (DELETE /realm/emoji/{emoji_name}): administrators
// may remove any, other users their own.
func (s *OrganizationState) RemoveCustomEmoji(requesterID int, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.activeEmoji(name)
	if e == nil {
		kind := apierr.KindInvalid
		if s.atLeast(LevelEmojiNotFound404) {
			kind = apierr.KindNotFound
		}
		return apierr.Of(kind, "BAD_REQUEST", "Emoji '%s' does not exist", name)
	}
	if u := s.accts.users[requesterID]; !u.IsAdmin() && e.authorID != u.ID {
		return apierr.BadRequest("Must be an organization administrator or emoji author")
	}
	e.deactivated = true
	s.publishRealmEmoji()
	return nil
}

// EmojiImage is a custom emoji's image by its path under EmojiPathPrefix: the uploaded file,
// or for an animated emoji's still/<id>.png the still image made at upload; ok is false for
// none.
func (s *OrganizationState) EmojiImage(name string) (contentType string, content []byte, ok bool) {
	still := strings.HasPrefix(name, "still/")
	file := strings.TrimPrefix(name, "still/")
	dot := strings.IndexByte(file, '.')
	if dot < 0 {
		return "", nil, false
	}
	id, err := strconv.Atoi(file[:dot])
	if err != nil {
		return "", nil, false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	e := s.emoji[id]
	switch {
	case e == nil:
		return "", nil, false
	case still && e.still != nil && file == strconv.Itoa(id)+".png":
		return "image/png", e.still, true
	case !still && e.fileName == file:
		return e.contentType, e.content, true
	}
	return "", nil, false
}

func (s *OrganizationState) publishRealmEmoji() {
	s.publish(events.Event{"type": "realm_emoji", "op": "update", "realm_emoji": s.realmEmojiMap()}, s.accts.activeUserIDs()...)
}
