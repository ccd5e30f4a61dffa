package api

import (
	"net/http"
	"strconv"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// addCustomEmoji: POST /realm/emoji/{emoji_name} — one uploaded image, from members and
// administrators (not guests or bots).
func (s *Service) addCustomEmoji(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	var files []realm.EmojiUpload
	for _, fh := range c.P.Files() {
		content, err := params.FileContent(fh, realm.MaxEmojiFileBytes+1)
		if err != nil {
			return nil, err
		}
		files = append(files, realm.EmojiUpload{FileName: fh.Filename, ContentType: fh.Header.Get("Content-Type"), Content: content})
	}
	return handler.Fields{}, s.realm().AddCustomEmoji(c.User.ID, pathParam(c.R, "emoji_name"), files, s.Config().UploadQuota())
}

// removeCustomEmoji: DELETE /realm/emoji/{emoji_name} — deactivates it.
func (s *Service) removeCustomEmoji(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().RemoveCustomEmoji(c.User.ID, pathParam(c.R, "emoji_name"))
}

// serveEmojiImage serves a custom emoji's image at the source_url (or still_url) the API gives,
// to anyone, as the real server's public avatar storage does.
func (s *Service) serveEmojiImage(w http.ResponseWriter, r *http.Request) {
	if _, err := params.Parse(r); err != nil {
		handler.WriteError(w, err)
		return
	}
	s.generation.RLock()
	contentType, content, ok := s.realm().EmojiImage(pathParam(r, "*"))
	s.generation.RUnlock()
	ok = ok && pathParam(r, "realm_id") == "1" // the fake's one realm
	if !ok {
		handler.WriteError(w, apierr.NotFound())
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(content)))
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(content)
	}
}
