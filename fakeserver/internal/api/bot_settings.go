package api

import (
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// botSettingsParams reads the parameters of PATCH /bots/{bot_id} that change a bot's own
// settings: the default channels by name (plain strings, "" for none), the JSON ones, and the
// outgoing webhook's JSON-encoded URL, format and configuration.
func botSettingsParams(c *handler.Call) realm.BotSettingsUpdate {
	up := realm.BotSettingsUpdate{ServiceInterface: 1}
	if name, ok := c.P.String("default_sending_stream"); ok {
		up.DefaultSendingStream = &name
	}
	if name, ok := c.P.String("default_events_register_stream"); ok {
		up.DefaultEventsRegisterStream = &name
	}
	if c.P.Has("default_all_public_streams") {
		all := c.P.Bool("default_all_public_streams", false)
		up.DefaultAllPublicStreams = &all
	}
	if raw, ok := jsonOfKind[string](c, "service_payload_url", "a string"); ok {
		if !realm.ValidServiceURL(raw) {
			c.P.Fail(apierr.BadRequest("service_payload_url is not a URL"))
		}
		up.ServicePayloadURL = &raw
	}
	if n, ok := c.P.Int("service_interface"); ok {
		up.ServiceInterface = int(max(min(n, 1<<31-1), -1)) // out of range: no interface
	}
	up.ConfigData = configDataParam(c)
	return up
}

// configDataParam reads a bot's configuration, config_data: a JSON object of strings; nil
// when absent.
func configDataParam(c *handler.Call) map[string]string {
	raw, ok := jsonOfKind[map[string]any](c, "config_data", "a dict")
	if !ok {
		return nil
	}
	config := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(raw)) { // the same key named every time
		str, isStr := raw[k].(string)
		if !isStr {
			c.P.Fail(apierr.BadRequest("config_data[%q] is not a string", k))
			return nil
		}
		config[k] = str
	}
	return config
}

// botSettingsEcho is how the reply of PATCH /bots/{bot_id} shows the outgoing-webhook
// parameters: as the request gave them (null when absent), the interface 1 by default, as
// the real server answers.
func botSettingsEcho(up realm.BotSettingsUpdate) handler.Fields {
	f := handler.Fields{"service_interface": up.ServiceInterface, "service_payload_url": nil, "config_data": nil}
	if up.ServicePayloadURL != nil {
		f["service_payload_url"] = *up.ServicePayloadURL
	}
	if up.ConfigData != nil {
		f["config_data"] = up.ConfigData
	}
	return f
}
