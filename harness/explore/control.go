package explore

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"
)

// What a step changes through a fake's control API (/_fake/): the clock, the configuration
// the document leaves to the server (the video-call integration, batch bounds) and a user's
// video-call token, which the user gets from the provider outside the chat API. Only a target
// with every capability the steps use is sent them; the reference gets the same, so what
// follows compares as anything else does. The answers are not compared: the control API is
// no part of the document.

// controlCapabilities are what the control steps need of a target.
var controlCapabilities = []string{"clock", "config", "vcall-token", "batch"}

// sendControl sends a control step: its path is the control API's, its parameters a form
// (the configuration's values JSON-encoded). The side remembers what to put back at the end
// of the sequence, and moves its idea of "now" with the clock.
func (s *Side) sendControl(ctx context.Context, st Step) (Reply, error) {
	if st.Path == "/_fake/config" {
		if err := s.rememberConfig(ctx, st.Params); err != nil {
			return Reply{}, err
		}
	}
	values := url.Values{}
	for k, v := range st.Params {
		values.Set(k, s.resolve(v))
	}
	r, err := s.control(ctx, st.Method, st.Path, values)
	if err != nil || !r.success() {
		return r, err
	}
	switch st.Path {
	case "/_fake/clock":
		n, _ := strconv.Atoi(values.Get("advance"))
		s.clockOffset += float64(n)
	case "/_fake/vcall_token":
		s.tokens[values.Get("user_id")] = values.Get("has_token") == "true"
	case "/_fake/config":
		if key, ok := st.Params["jwt_key"]; ok {
			s.jwtKey, s.jwtAlgorithm = key, cmp.Or(st.Params["jwt_algorithm"], s.jwtAlgorithm)
		}
	}
	return r, nil
}

// control sends one request to the control API.
func (s *Side) control(ctx context.Context, method, path string, values url.Values) (Reply, error) {
	req, logged, err := formRequest(ctx, method, s.URL+path, values)
	if err != nil {
		return Reply{}, err
	}
	// A header no web form can send: the control API refuses cross-site requests without one.
	req.Header.Set("X-Chatconform-Explore", "control")
	r, err := s.do(req, "control", logged, nil, 1<<20)
	if err != nil {
		return r, err
	}
	if _, text := r.Body.(string); text {
		return r, s.fail("%s %s: the control API's answer is not JSON: %.200q", method, path, r.Body)
	}
	return r, nil
}

// rememberConfig reads the configuration's values the step changes, the first time the
// sequence changes each.
func (s *Side) rememberConfig(ctx context.Context, params map[string]string) error {
	r, err := s.control(ctx, http.MethodGet, "/_fake/config", nil)
	if err != nil {
		return err
	}
	config, _ := r.field("config").(map[string]any)
	for name := range params {
		if _, kept := s.config[name]; kept {
			continue
		}
		if name == "jwt_key" {
			s.rememberJWTKey(config)
			continue
		}
		v, ok := config[name]
		if !ok {
			return s.fail("the fake's configuration has no %s", name)
		}
		data, _ := json.Marshal(v)
		s.config[name] = string(data)
	}
	return nil
}

// rememberJWTKey remembers how to put back the JWT key, which the fake never shows, only
// whether one is set: a set key as the fixture's (as the harness restores it), none as none.
func (s *Side) rememberJWTKey(config map[string]any) {
	if _, kept := s.config["fixture_jwt_key"]; kept {
		return
	}
	if config["jwt_key_set"] == true {
		s.config["fixture_jwt_key"] = "true"
	} else {
		s.config["fixture_jwt_key"], s.config["jwt_key"] = "false", "" // a form value, not JSON
	}
}

// rememberLimits reads the realm's editing time limits and editing group settings before the
// sequence first changes them (a null limit is unlimited; a group setting is put back as
// {"new": its value}).
func (s *Side) rememberLimits(ctx context.Context) error {
	if s.limits != nil {
		return nil
	}
	r, err := s.ownerState(ctx, "realm")
	if err != nil {
		return err
	}
	s.limits = map[string]string{}
	for _, name := range editLimits {
		if v, ok := r.Body.(map[string]any)["realm_"+name]; ok {
			s.limits[name] = "unlimited"
			if v != nil {
				s.limits[name] = rawText(v)
			}
		}
	}
	for _, name := range groupSettings {
		if v, ok := r.Body.(map[string]any)["realm_"+name]; ok {
			s.limits[name] = `{"new":` + jsonText(v) + `}`
		}
	}
	return nil
}

// restoreControl puts back what the sequence changed through the control API and the
// realm's editing limits (the clock moves on: no later sequence depends on it).
func (s *Side) restoreControl(ctx context.Context) {
	users := make([]string, 0, len(s.tokens))
	for id, has := range s.tokens {
		if has {
			users = append(users, id)
		}
	}
	sort.Strings(users)
	for _, id := range users {
		_, _ = s.control(ctx, http.MethodPost, "/_fake/vcall_token", url.Values{"user_id": {id}, "has_token": {"false"}})
	}
	if len(s.config) > 0 {
		values := url.Values{}
		for k, v := range s.config {
			values.Set(k, v)
		}
		_, _ = s.control(ctx, http.MethodPatch, "/_fake/config", values)
	}
	if len(s.limits) > 0 {
		params := map[string]string{}
		for k, v := range s.limits {
			params[k] = v
		}
		_, _ = s.send(ctx, "owner", http.MethodPatch, "/realm", params)
	}
}
