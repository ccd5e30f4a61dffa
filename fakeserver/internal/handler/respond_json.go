package handler

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// replyEncoder writes JSON byte for byte as encoding/json does with HTML escaping off, but
// walks the dynamic maps and slices of replies itself and writes plain strings, integers and
// booleans directly. encoding/json reflects over every map[string]any and sorts its keys as
// reflect values, which was a third of a simple reply's cost; structs, floats and strings that
// need escaping still go to encoding/json, which caches its work per type.
type replyEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var replyEncoders = sync.Pool{New: func() any {
	e := &replyEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// encodeReply returns body as JSON; the bytes are valid until enc.release is called (enc is
// nil on an error).
func encodeReply(body any) (data []byte, enc *replyEncoder, err error) {
	return encodeWith(func(e *replyEncoder) error { return e.value(body) })
}

// encodeWith is encodeReply of what encode writes.
func encodeWith(encode func(e *replyEncoder) error) (data []byte, enc *replyEncoder, err error) {
	e := replyEncoders.Get().(*replyEncoder)
	e.buf.Reset()
	if err := encode(e); err != nil {
		e.release()
		return nil, nil, err
	}
	return e.buf.Bytes(), e, nil
}

// release returns the encoder to replyEncoders; a nil one is left alone.
func (e *replyEncoder) release() {
	if e != nil && e.buf.Cap() <= 1<<20 { // a huge reply's buffer is not kept
		replyEncoders.Put(e)
	}
}

func (e *replyEncoder) value(v any) error {
	switch x := v.(type) {
	case nil:
		e.buf.WriteString("null")
	case string:
		e.string(x)
	case int:
		e.buf.Write(strconv.AppendInt(e.buf.AvailableBuffer(), int64(x), 10))
	case int64:
		e.buf.Write(strconv.AppendInt(e.buf.AvailableBuffer(), x, 10))
	case bool:
		e.buf.WriteString(strconv.FormatBool(x))
	case Fields:
		return e.object(x)
	case map[string]any:
		return e.object(x)
	case events.Event:
		return e.object(x)
	case []any:
		return array(e, x)
	case []map[string]any:
		return array(e, x)
	case []events.Event:
		return array(e, x)
	case typedEnvelope:
		return e.typedEnvelope(x)
	case []realm.Topic:
		e.topics(x)
	case []realm.MessageView:
		return e.messageViews(x)
	case realm.RecycledViews:
		// Written once, then given back for reuse: a reply is encoded once.
		defer x.Release()
		return e.messageViews(x.Views())
	default:
		return e.reflected(v)
	}
	return nil
}

// reflected encodes v through encoding/json.
func (e *replyEncoder) reflected(v any) error {
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	e.buf.Truncate(e.buf.Len() - 1) // Encode ends each value with a newline
	return nil
}

// string writes a string that needs no escaping as it is, and any other through encoding/json.
func (e *replyEncoder) string(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			_ = e.reflected(s) // a string always encodes
			return
		}
	}
	e.buf.WriteByte('"')
	e.buf.WriteString(s)
	e.buf.WriteByte('"')
}

// object writes a map with its keys in order, as encoding/json does (null for a nil map).
func (e *replyEncoder) object(m map[string]any) error {
	if m == nil {
		e.buf.WriteString("null")
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return e.members(keys, func(k string) any { return m[k] })
}

// members writes an object of keys, in the order given, each with the value get gives it.
func (e *replyEncoder) members(keys []string, get func(string) any) error {
	e.buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		e.string(k)
		e.buf.WriteByte(':')
		if err := e.value(get(k)); err != nil {
			return err
		}
	}
	e.buf.WriteByte('}')
	return nil
}

// overlaid writes the object of m's fields with o's laid over them (o's replace m's of the
// same name), its keys in order, as object writes the map holding both.
func (e *replyEncoder) overlaid(m map[string]any, o *overlay) error {
	var room [12]string
	keys := room[:0]
	for k := range m {
		if _, over := o.get(k); !over {
			keys = append(keys, k)
		}
	}
	for _, f := range o.fields[:o.n] {
		keys = append(keys, f.name)
	}
	slices.Sort(keys)
	return e.members(keys, func(k string) any {
		if v, over := o.get(k); over {
			return v
		}
		return m[k]
	})
}

// array writes a slice (null for a nil slice).
func array[T any](e *replyEncoder, list []T) error {
	if list == nil {
		e.buf.WriteString("null")
		return nil
	}
	e.buf.WriteByte('[')
	for i, v := range list {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		if err := e.value(v); err != nil {
			return err
		}
	}
	e.buf.WriteByte(']')
	return nil
}

// topics writes a topic listing, a reply as long as the channel has topics, without reflection.
func (e *replyEncoder) topics(list []realm.Topic) {
	if list == nil {
		e.buf.WriteString("null")
		return
	}
	e.buf.WriteByte('[')
	for i, t := range list {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		e.buf.WriteString(`{"name":`)
		e.string(t.Name)
		e.buf.WriteString(`,"max_id":`)
		e.buf.Write(strconv.AppendInt(e.buf.AvailableBuffer(), int64(t.MaxID), 10))
		e.buf.WriteByte('}')
	}
	e.buf.WriteByte(']')
}

// messageViews writes a list of message views, a fetch's reply, without reflection.
func (e *replyEncoder) messageViews(list []realm.MessageView) error {
	if list == nil {
		e.buf.WriteString("null")
		return nil
	}
	b := append(e.buf.AvailableBuffer(), '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = list[i].AppendJSON(b); err != nil {
			return err
		}
	}
	e.buf.Write(append(b, ']'))
	return nil
}

// ObjectAppender is a typed reply body that appends itself as the JSON object encoding/json
// writes of it, without reflection (the hottest replies: a send's).
type ObjectAppender interface {
	AppendJSONObject(b []byte) []byte
}

// typedEnvelope is a success reply of fixed shape: the envelope, then body's fields (a struct).
type typedEnvelope struct {
	ignored []string
	body    any
}

func (e *replyEncoder) typedEnvelope(env typedEnvelope) error {
	e.buf.WriteString(`{"result":"success","msg":""`)
	if len(env.ignored) > 0 {
		e.buf.WriteString(`,"ignored_parameters_unsupported":`)
		if err := e.reflected(ignoredListed(env.ignored)); err != nil {
			return err
		}
	}
	start := e.buf.Len()
	if a, ok := env.body.(ObjectAppender); ok {
		e.buf.Write(a.AppendJSONObject(e.buf.AvailableBuffer()))
	} else if err := e.reflected(env.body); err != nil {
		return err
	}
	// The body's object joins the envelope's: its "{" becomes a comma, or goes with its "}".
	if e.buf.Bytes()[start] != '{' {
		return fmt.Errorf("a typed reply of %T is not a JSON object", env.body)
	}
	if e.buf.Len()-start == 2 {
		e.buf.Truncate(start)
		e.buf.WriteByte('}')
	} else {
		e.buf.Bytes()[start] = ','
	}
	return nil
}
