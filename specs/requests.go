package specs

import (
	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// getAs sends GET path (with one {id} path argument) as role; query holds name, value pairs
// in the order the document lists the parameters, which keeps a spec's call close to its text.
func getAs(role harness.Role, path string, id int, query ...any) *httpexpect.Response {
	req := harness.Current().As(role).GET(path, id)
	for i := 0; i+1 < len(query); i += 2 {
		req = req.WithQuery(query[i].(string), query[i+1])
	}
	return req.Expect()
}

// memberChannel is the setup many specs share: the target, its member, a fresh public channel
// the member is subscribed to, and a fresh topic name with the given prefix.
func memberChannel(topicPrefix string) (*harness.Target, harness.User, harness.Channel, string) {
	t := harness.Current()
	return t, t.Users[harness.Member], t.NewChannel(harness.Public, harness.Member), harness.UniqueName(topicPrefix)
}
