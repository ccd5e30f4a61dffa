package harness

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestRedactSecret(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"short", "****"},
		{"12345678", "****"},
		{"123456789", "****"},
		{ownerKey, "****"},
	}
	for _, tt := range tests {
		if got := RedactSecret(tt.in); got != tt.want {
			t.Errorf("RedactSecret(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRedactText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"json", `{"api_key":"` + ownerKey + `","email":"a@b"}`, `{"api_key":"****","email":"a@b"}`},
		{"json spaced", `"password" :  "hunter2hunter2"`, `"password" :  "****"`},
		{"json escaped quote", `{"token":"abc\"defghijkl"}`, `{"token":"****"}`},
		{"form", "username=a%40b&password=pw123456789", "username=a%40b&password=****"},
		{"query", "/x?api_key=" + ownerKey + "&y=1", "/x?api_key=****&y=1"},
		{"jwt key", "jwt_key=supersecretvalue", "jwt_key=****"},
		{"other fields kept", `{"key":"value","api_keys":"x"}`, `{"key":"value","api_keys":"x"}`},
		{"not a prefix match", "my_password=abc", "my_password=abc"},
		{"gomega map", `"api_key": <string>"` + ownerKey + `",`, `"api_key": <string>"****",`},
		{"go struct", `{Role: "owner", APIKey: "` + ownerKey + `"}`, `{Role: "owner", APIKey: "****"}`},
		{"go struct with type", `Password: <string>"hunter2hunter2"`, `Password: <string>"****"`},
		{"form in parentheses", "(api_key=" + ownerKey + ")", "(api_key=****)"},
		{"form in quotes", `"token=abcdefghijkl"`, `"token=****"`},
		{"push key", "push_key=MTIzNDU2Nzg5MDEy", "push_key=****"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactText(tt.in); got != tt.want {
				t.Errorf("RedactText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactAuthorization(t *testing.T) {
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("owner@x.test:"+ownerKey))
	tests := []struct{ in, want string }{
		{basic, "Basic owner@x.test:****"},
		{"Bearer abc", "****"},
		{"Basic !!!", "Basic ****"},
		{"Basic " + base64.StdEncoding.EncodeToString([]byte("nocolon")), "Basic ****"},
	}
	for _, tt := range tests {
		if got := redactHeader("authorization", tt.in); got != tt.want {
			t.Errorf("redactHeader(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExchangeLog(t *testing.T) {
	var buf bytes.Buffer
	h := http.Header{}
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("m@x.test:"+ownerKey)))
	u, _ := url.Parse("http://host/api/v1/fetch_api_key?api_key=" + ownerKey)
	logRequest(&buf, "POST", u, h, []byte("username=m%40x.test&password=pw-pw-pw-pw-1234"))
	rh := http.Header{}
	rh.Set("Content-Type", "application/json")
	logResponse(&buf, "200 OK", rh, []byte(`{"result":"success","msg":"","api_key":"`+ownerKey+`"}`), 3*time.Millisecond)
	logRequest(&buf, "POST", u, http.Header{"Content-Type": {"multipart/form-data; boundary=x"}}, []byte("--x\r\nbinary"))

	out := buf.String()
	if strings.Contains(out, ownerKey) || strings.Contains(out, "pw-pw-pw-pw-1234") {
		t.Errorf("log holds a secret:\n%s", out)
	}
	for _, want := range []string{
		"--> POST http://host/api/v1/fetch_api_key?api_key=****",
		"Authorization: Basic m@x.test:****",
		"    username=m@x.test\n", "    password=****\n",
		"<-- 200 OK (3ms)", `"api_key":"****"`,
		"<multipart/form-data body, 11 bytes>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

func TestHeaderSafe(t *testing.T) {
	if got := headerSafe("a\nb ✔ c"); got != `a b \u2714 c` {
		t.Errorf("headerSafe = %q", got)
	}
	if got := headerSafe(strings.Repeat("x", 1000)); len(got) != 400 {
		t.Errorf("len = %d, want 400", len(got))
	}
}

func TestGomegaStringsRedactKeys(t *testing.T) {
	u := User{Role: Member, ID: 4, Email: "m@x.test", APIKey: ownerKey}
	c := Credentials{Email: "o@x.test", APIKey: ownerKey}
	for _, s := range []string{u.GomegaString(), c.GomegaString()} {
		if strings.Contains(s, ownerKey) || !strings.Contains(s, "****") {
			t.Errorf("key not redacted: %s", s)
		}
	}
}
