package pipeline

import "testing"

// The journal's reply redaction on the shapes a reply's start can take: cut anywhere, names
// escaped, a credential's name inside a string value.
func TestRedactReply(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"api_key":"K1","email":"a@b"}`, `{"api_key":"****","email":"a@b"}`},
		{`{"api_key" : "K1"}`, `{"api_key" : "****"}`},
		{`{"api\u005fkey":"K1"}`, `{"api\u005fkey":"****"}`},
		{`{"Password":"p"}`, `{"Password":"****"}`},
		{`{"user_id":3,"api_key":"Owner`, `{"user_id":3,"api_key":"****"`},
		{`{"api_key":"K\"1","x":"y"}`, `{"api_key":"****","x":"y"}`},
		{`{"password":true,"token":null}`, `{"password":true,"token":null}`},
		{`{"content":"say \"api_key\":\"zz\"","id":1}`, `{"content":"say \"api_key\":\"zz\"","id":1}`},
		{`{"a":[{"jwt_key":"s"},{"push_key":"t"}]}`, `{"a":[{"jwt_key":"****"},{"push_key":"****"}]}`},
		{`{"api_k`, `{"api_k`},
		{``, ``},
	} {
		if got := string(redactReply([]byte(tc.in))); got != tc.want {
			t.Errorf("redactReply(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestRedactQuery(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"password=p&x=1", "password=****&x=1"},
		{"pass%77ord=p", "pass%77ord=****"},
		{"API%5FKEY=k", "API%5FKEY=****"},
		{"pass%zz=p&x=1", "pass%zz=****&x=1"},
		{"to=general&content=password", "to=general&content=password"},
		{"token", "token=****"},
	} {
		if got := redactQuery(tc.in); got != tc.want {
			t.Errorf("redactQuery(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
