package harness

import (
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestUploadSendsOneMultipartFile(t *testing.T) {
	var got struct{ name, content, user string }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.user, _, _ = r.BasicAuth()
		mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt == "multipart/form-data" {
			form, err := multipart.NewReader(r.Body, params["boundary"]).ReadForm(1 << 20)
			if err == nil && len(form.File["file"]) == 1 {
				got.name = form.File["file"][0].Filename
				f, _ := form.File["file"][0].Open()
				b, _ := io.ReadAll(f)
				got.content = string(b)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"result":"success","msg":"","url":"http://example.test/user_uploads/2/ab/`+got.name+`"}`)
	}))
	t.Cleanup(srv.Close)
	rec := &recorder{}
	tgt := &Target{URL: srv.URL, Reporter: rec, Log: io.Discard, RunID: "run1"}
	f := tgt.Upload(User{Email: "u@example.test", APIKey: "k"}, "hello")
	if failures := rec.take(); len(failures) > 0 {
		t.Fatalf("upload failed: %v", failures)
	}
	if got.user != "u@example.test" || got.content != "hello" || got.name != f.Name || !strings.HasSuffix(f.Name, ".txt") {
		t.Errorf("the server saw %+v for %+v", got, f)
	}
	// An absolute URL is reduced to its path; the path_id is what follows /user_uploads/.
	if f.URL != "/user_uploads/2/ab/"+f.Name || f.PathID != "2/ab/"+f.Name || f.Link() != "["+f.Name+"]("+f.URL+")" {
		t.Errorf("uploaded file %+v", f)
	}
}
