package harness

import "regexp"

// Request forms the real server changed over its feature levels (its changelog), where the
// document gives only the current one: the harness sends the form the target's level takes, so
// that setup does not fail on an older server.

// The levels at which those forms changed: the one table of levels in the harness (no other
// harness file writes a level, TestNoLevelLiteralOutsideFormLevels). A form that a requirement
// of the catalog states has that requirement's min_level, the level the specs gate it on
// (TestFormLevelsFollowTheCatalog); the others are the changelog's alone, forms the document
// does not state.
const (
	// levelWholeMessageFetch: GET /messages/{id} answers the whole message (raw_content only
	// before); MSG-38.
	levelWholeMessageFetch = 120
	// levelDirectMessageType: POST /messages takes type "direct" ("private" before).
	levelDirectMessageType = 174
	// levelLinkifierURLTemplate: POST /realm/filters takes url_template (url_format_string,
	// with %(name)s variables, before); RES-23.
	levelLinkifierURLTemplate = 176
	// levelChannelOperator: narrows take the operator "channel" ("stream" before).
	levelChannelOperator = 250
	// levelGroupDeactivation: user groups are deactivated (deleted before).
	levelGroupDeactivation = 290
	// levelChannelMoveGroup: can_move_messages_between_channels_group replaces
	// move_messages_between_streams_policy; AUTH-17.
	levelChannelMoveGroup = 310
	// levelSubgroupsAtCreation: POST /user_groups/create takes subgroups (added afterwards before).
	levelSubgroupsAtCreation = 311
	// levelTopicMoveGroup: can_move_messages_between_topics_group replaces edit_topic_policy;
	// AUTH-16.
	levelTopicMoveGroup = 316
	// levelGroupIDAnswered: POST /user_groups/create answers group_id (found by name before).
	levelGroupIDAnswered = 317
)

// DirectMessageType is the type of a direct message in POST /messages: "direct" from
// levelDirectMessageType, "private" before (still taken since).
func (t *Target) DirectMessageType() string {
	if t.FeatureLevel >= levelDirectMessageType {
		return "direct"
	}
	return "private"
}

// ChannelOperator is the narrow operator that names a channel: "channel" from
// levelChannelOperator, "stream" before (still taken since).
func (t *Target) ChannelOperator() string {
	if t.FeatureLevel >= levelChannelOperator {
		return "channel"
	}
	return "stream"
}

// linkifierURLField is the URL field of a new linkifier in the form the target's level takes:
// url_template from levelLinkifierURLTemplate, before it url_format_string, whose variables
// are written %(name)s where a template writes {name}.
func (t *Target) linkifierURLField(urlTemplate string) (string, string) {
	if t.FeatureLevel >= levelLinkifierURLTemplate {
		return "url_template", urlTemplate
	}
	return "url_format_string", templateVariable.ReplaceAllString(urlTemplate, "%(${1})s")
}

// templateVariable is a variable of a URL template, {name}.
var templateVariable = regexp.MustCompile(`\{(\w+)\}`)

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
