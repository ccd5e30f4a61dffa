package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// The parameter readers the handlers share: each reads one parameter of a call in the real
// server's shape, notes a bad value as the call's parameter error (c.Done returns it) and
// gives the zero value or nil for an absent optional one.

// optionalBool reads an optional JSON boolean; nil when absent.
func optionalBool(c *handler.Call, name string) *bool {
	if !c.P.Has(name) {
		return nil
	}
	v := c.P.Bool(name, false)
	return &v
}

// optionalString reads an optional string parameter; nil when it was not sent.
func optionalString(c *handler.Call, name string) *string {
	v, ok := c.P.String(name)
	if !ok {
		return nil
	}
	return &v
}

// stringList reads an optional JSON list of strings; nil when absent.
func stringList(c *handler.Call, name string) []string {
	list, ok := jsonOfKind[[]any](c, name, "a list")
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for i, item := range list {
		str, isStr := item.(string)
		if !isStr {
			c.P.Fail(apierr.BadRequest("%s[%d] is not a string", name, i))
			return nil
		}
		out = append(out, str)
	}
	return out
}

// jsonOfKind reads an optional JSON parameter that must decode to T ("<name> is not <kind>").
func jsonOfKind[T any](c *handler.Call, name, kind string) (T, bool) {
	var zero T
	v, ok := c.P.JSON(name)
	if !ok {
		return zero, false
	}
	typed, isT := v.(T)
	if !isT {
		c.P.Fail(apierr.BadRequest("%s is not %s", name, kind))
		return zero, false
	}
	return typed, true
}

// intList reads a JSON list of integer IDs; IDs beyond 32 bits name nothing and are kept
// as such, so the domain reports them as unknown.
func intList(c *handler.Call, name string, required bool) []int {
	var list []int64
	if required {
		list = c.P.RequiredIntList(name)
	} else {
		list, _ = c.P.IntList(name)
	}
	out := make([]int, 0, len(list))
	for _, id := range list {
		if id < 0 || id > 1<<31-1 {
			id = 0 // no user or group has ID 0
		}
		out = append(out, int(id))
	}
	return out
}

// int32From checks that n, the value of the integer parameter name, lies between lo and the
// largest 32-bit integer, with the real server's words for one outside.
func int32From(c *handler.Call, name string, n, lo int64) (int, bool) {
	switch {
	case n < lo:
		c.P.Fail(apierr.BadRequest("%s is too small", name))
		return 0, false
	case n > 1<<31-1:
		c.P.Fail(apierr.BadRequest("%s is too large", name))
		return 0, false
	}
	return int(n), true
}

// nonNegativeInt reads an optional JSON integer that must be at least 0 and fit in 32 bits.
func nonNegativeInt(c *handler.Call, name string) (int, bool) {
	n, given := c.P.Int(name)
	if !given {
		return 0, false
	}
	return int32From(c, name, n, 0)
}

// requiredCount reads a required non-negative JSON integer count.
func requiredCount(c *handler.Call, name string) int {
	if !c.P.Has(name) {
		c.P.Fail(apierr.Missing(name))
		return 0
	}
	n, _ := nonNegativeInt(c, name)
	return n
}

// channelIDParam reads a required JSON channel ID; one outside the ID range names no channel.
func channelIDParam(c *handler.Call) int {
	id := c.P.RequiredInt("stream_id")
	if c.P.Err() == nil && (id <= 0 || id > 1<<31-1) {
		c.P.Fail(apierr.InvalidChannel)
	}
	return int(id)
}
