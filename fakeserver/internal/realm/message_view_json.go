package realm

import (
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the view as encoding/json writes it with HTML escaping off (the replies'
// encoder), without reflection: a narrowed fetch's reply is mostly its views, and encoding/json
// walked each view's fields by reflection and called its flags' and reactions' MarshalJSON,
// then scanned their output again. The parts a usual message lacks (reactions, submessages,
// the recipients of a direct message) still go through encoding/json.
// TestMessageViewAppendJSON holds it to encoding/json's bytes.
func (v *MessageView) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, int64(v.ID), 10)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, v.Type)
	if v.StreamID != 0 {
		b = append(b, `,"stream_id":`...)
		b = strconv.AppendInt(b, int64(v.StreamID), 10)
	}
	b = append(b, `,"subject":`...)
	b = appendJSONString(b, v.Subject)
	if v.TopicLinks != nil {
		b = appendTopicLinks(append(b, `,"topic_links":`...), *v.TopicLinks)
	}
	if v.SubjectLinks != nil {
		b = appendTopicLinks(append(b, `,"subject_links":`...), *v.SubjectLinks)
	}
	b = appendJSONString(append(b, `,"content":`...), v.Content)
	b = appendJSONString(append(b, `,"content_type":`...), v.ContentType)
	b = strconv.AppendInt(append(b, `,"timestamp":`...), v.Timestamp, 10)
	b = strconv.AppendInt(append(b, `,"sender_id":`...), int64(v.SenderID), 10)
	b = appendJSONString(append(b, `,"sender_email":`...), v.SenderEmail)
	b = appendJSONString(append(b, `,"sender_full_name":`...), v.SenderFullName)
	b = appendJSONString(append(b, `,"sender_realm_str":`...), v.SenderRealmStr)
	if b, err = appendJSONAny(append(b, `,"avatar_url":`...), v.AvatarURL); err != nil {
		return nil, err
	}
	b = appendJSONString(append(b, `,"client":`...), v.Client)
	if b, err = appendJSONAny(append(b, `,"display_recipient":`...), v.DisplayRecipient); err != nil {
		return nil, err
	}
	b = strconv.AppendInt(append(b, `,"recipient_id":`...), int64(v.RecipientID), 10)
	b = strconv.AppendBool(append(b, `,"is_me_message":`...), v.IsMeMessage)
	if b, err = v.Flags.appendJSON(append(b, `,"flags":`...)); err != nil {
		return nil, err
	}
	if b, err = v.Reactions.appendJSON(append(b, `,"reactions":`...)); err != nil {
		return nil, err
	}
	if b, err = appendJSONList(append(b, `,"submessages":`...), v.Submessages); err != nil {
		return nil, err
	}
	if len(v.EditHistory) > 0 {
		b = appendEditHistory(append(b, `,"edit_history":`...), v.EditHistory)
	}
	if v.LastEditTimestamp != 0 {
		b = strconv.AppendInt(append(b, `,"last_edit_timestamp":`...), v.LastEditTimestamp, 10)
	}
	if v.LastMovedTimestamp != 0 {
		b = strconv.AppendInt(append(b, `,"last_moved_timestamp":`...), v.LastMovedTimestamp, 10)
	}
	if v.MatchContent != nil {
		b = appendJSONString(append(b, `,"match_content":`...), *v.MatchContent)
	}
	if v.MatchSubject != nil {
		b = appendJSONString(append(b, `,"match_subject":`...), *v.MatchSubject)
	}
	return append(b, '}'), nil
}

// appendEditHistory appends a non-empty edit history as encoding/json writes it: an edited
// message's history is in every fetch of it, and went through encoding/json.
func appendEditHistory(b []byte, list []EditEntryView) []byte {
	b = append(b, '[')
	for i := range list {
		e := &list[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"user_id":`...)
		if e.UserID == nil {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, int64(*e.UserID), 10)
		}
		b = strconv.AppendInt(append(b, `,"timestamp":`...), e.Timestamp, 10)
		if e.PrevContent != nil {
			b = appendJSONString(append(b, `,"prev_content":`...), *e.PrevContent)
		}
		if e.PrevRenderedContent != nil {
			b = appendJSONString(append(b, `,"prev_rendered_content":`...), *e.PrevRenderedContent)
		}
		if e.PrevStream != 0 {
			b = strconv.AppendInt(append(b, `,"prev_stream":`...), int64(e.PrevStream), 10)
		}
		if e.Stream != 0 {
			b = strconv.AppendInt(append(b, `,"stream":`...), int64(e.Stream), 10)
		}
		if e.PrevTopic != nil {
			b = appendJSONString(append(b, `,"prev_topic":`...), *e.PrevTopic)
		}
		if e.Topic != nil {
			b = appendJSONString(append(b, `,"topic":`...), *e.Topic)
		}
		if e.PrevSubject != nil {
			b = appendJSONString(append(b, `,"prev_subject":`...), *e.PrevSubject)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendTopicLinks appends a view's topic links (null for a nil list).
func appendTopicLinks(b []byte, links []TopicLink) []byte {
	if links == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, l := range links {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(append(b, `{"text":`...), l.Text)
		b = append(appendJSONString(append(b, `,"url":`...), l.URL), '}')
	}
	return append(b, ']')
}

// appendJSONAny appends a field of type any: null and strings directly, the rest through
// encoding/json.
func appendJSONAny(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, x), nil
	}
	return appendMarshaled(b, v)
}

// appendJSONList appends a list: [] when empty, null when nil, and the rest through encoding/json.
func appendJSONList[T any](b []byte, list []T) ([]byte, error) {
	if len(list) == 0 && list != nil {
		return append(b, "[]"...), nil
	}
	return appendMarshaled(b, list)
}

// appendMarshaled appends v as listJSON writes it.
func appendMarshaled(b []byte, v any) ([]byte, error) {
	data, err := listJSON(v)
	if err != nil {
		return nil, err
	}
	return append(b, data...), nil
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes it with HTML escaping off: the
// short escapes, \u00XX for the other control characters, \ufffd for invalid UTF-8, and
// U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}
