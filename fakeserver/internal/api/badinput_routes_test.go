package api_test

import (
	"net/http"
	"sort"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
	"github.com/go-chi/chi/v5"
)

// linkifierParams are the parameters of adding and of editing a linkifier.
var linkifierParams = []param{
	{name: "pattern", required: true, oversizeFails: true},
	{name: "url_template", required: true, oversizeFails: true},
	{name: "example_input", oversizeFails: true},
	{name: "reverse_template", oversizeFails: true},
	{name: "alternative_url_templates", kind: kStrList},
}

// routeTable is every route of the fake; TestRouteTableCoversRouter keeps it complete.
func routeTable() []routeSpec {
	var table []routeSpec
	add := func(rs routeSpec) { table = append(table, rs) }
	// Each handler file's routes keep their cases in badinput_<its word>_test.go. The setup
	// message (ID 1) was sent by the owner to general > setup; general (ID 1) is the fixture's
	// one channel, with everyone subscribed; some valid requests need integrationSetUp's objects.
	routeCasesAlertWords(add)
	routeCasesAttachments(add)
	routeCasesAvatars(add)
	routeCasesBotStorage(add)
	routeCasesChannels(add)
	routeCasesChannelsCreate(add)
	routeCasesControl(add)
	routeCasesControlDescribe(add)
	routeCasesControlInspector(add)
	routeCasesCreateUser(add)
	routeCasesDeleteTopic(add)
	routeCasesDrafts(add)
	routeCasesEditMessage(add)
	routeCasesEditTyping(add)
	routeCasesEmoji(add)
	routeCasesEvents(add)
	routeCasesFetchMessage(add)
	routeCasesGroupMembership(add)
	routeCasesJwt(add)
	routeCasesLinkifiers(add)
	routeCasesMarkAllAsRead(add)
	routeCasesMarkAsRead(add)
	routeCasesMatchesNarrow(add)
	routeCasesMessageFlags(add)
	routeCasesMessageHistory(add)
	routeCasesMessages(add)
	routeCasesMutedUsers(add)
	routeCasesPlaygrounds(add)
	routeCasesPresence(add)
	routeCasesProfileFields(add)
	routeCasesPushRegistration(add)
	routeCasesReactions(add)
	routeCasesReadReceipts(add)
	routeCasesRealm(add)
	routeCasesRegister(add)
	routeCasesReminders(add)
	routeCasesRender(add)
	routeCasesSavedSnippets(add)
	routeCasesScheduledMessages(add)
	routeCasesServerSettings(add)
	routeCasesSubscriptionSettings(add)
	routeCasesSubscriptions(add)
	routeCasesTopicMuting(add)
	routeCasesTopics(add)
	routeCasesTyping(add)
	routeCasesUpdateUserByEmail(add)
	routeCasesUploads(add)
	routeCasesUserGroups(add)
	routeCasesUserStatus(add)
	routeCasesUserTopics(add)
	routeCasesUserChannels(add)
	routeCasesMessageReport(add)
	routeCasesWelcomeBot(add)
	routeCasesUserSettingsDefaults(add)
	routeCasesUsers(add)
	routeCasesVideoCalls(add)
	routeCasesAdministration(add) // API keys and bots, invitations, exports, push tests, BigBlueButton
	routeCasesOrganization(add)   // default channels, channel folders, navigation views, custom emoji, profile field edits
	return table
}

// walkRoutes returns the methods the router serves, by pattern.
func walkRoutes(t testing.TB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fakeserver.New() // builds the route table the fakes share
	err := chi.Walk(pipeline.Routes(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		out[route] = append(out[route], method)
		return nil
	})
	if err != nil {
		t.Fatalf("walking the router: %v", err)
	}
	return out
}

// olderLevelRoutes are served only below the fixture's level, where the table's setup does not
// run (it needs later routes): TestOlderRoutesBadInput has their bad-input cases.
// developmentRoutes answer only on a development server, which the table's fixture is not:
// TestDevFetchAPIKey has their bad-input cases.
var developmentRoutes = map[string]bool{"POST /api/v1/dev_fetch_api_key": true}

var olderLevelRoutes = map[string]bool{
	"POST /api/v1/message_edit_typing":                  true,
	"DELETE /api/v1/user_groups/{user_group_id:[0-9]+}": true,
}

func TestRouteTableCoversRouter(t *testing.T) {
	walked := walkRoutes(t)
	inTable := map[string]bool{}
	for _, rs := range routeTable() {
		key := rs.method + " " + rs.pattern
		if inTable[key] {
			t.Errorf("route table lists %s twice", key)
		}
		inTable[key] = true
	}
	var routes []string
	for pattern, methods := range walked {
		for _, m := range methods {
			routes = append(routes, m+" "+pattern)
		}
	}
	sort.Strings(routes)
	for _, key := range routes {
		if olderLevelRoutes[key] || developmentRoutes[key] {
			continue
		}
		if !inTable[key] {
			t.Errorf("the router serves %s but the bad-input route table has no entry for it: add one to routeTable", key)
		}
		delete(inTable, key)
	}
	for key := range inTable {
		t.Errorf("the route table lists %s, which the router does not serve", key)
	}
	t.Logf("%d routes walked", len(routes))
}
