package harness

// Request forms the real server changed over its feature levels (its changelog), where the
// document gives only the current one: the harness sends the form the target's level takes, so
// that setup does not fail on an older server.

// DirectMessageType is the type of a direct message in POST /messages: "direct" from level
// 174, "private" before (still taken since).
func (t *Target) DirectMessageType() string {
	if t.FeatureLevel >= 174 {
		return "direct"
	}
	return "private"
}

// ChannelOperator is the narrow operator that names a channel: "channel" from level 250,
// "stream" before (still taken since).
func (t *Target) ChannelOperator() string {
	if t.FeatureLevel >= 250 {
		return "channel"
	}
	return "stream"
}

// uploadURLOf is the file URL of a POST /user_uploads answer: url from level 272, uri before
// (kept since as an alias).
func uploadURLOf(answer map[string]any) (string, bool) {
	for _, key := range []string{"url", "uri"} {
		if s, ok := answer[key].(string); ok {
			return s, true
		}
	}
	return "", false
}
