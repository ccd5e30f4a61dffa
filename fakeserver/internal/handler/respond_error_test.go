package handler

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// TestWriteErrorEnvelope: whatever error reaches the one error writer leaves as the
// documented envelope; an API error keeps its code and fields through wrapping, and any
// other error is an internal failure whose text does not leak.
func TestWriteErrorEnvelope(t *testing.T) {
	for _, tc := range []struct {
		name       string
		err        error
		wantStatus int
		wantCode   string
		wantMsg    string
		wantExtra  map[string]any
	}{
		{"api error", apierr.Missing("to"), http.StatusBadRequest, "REQUEST_VARIABLE_MISSING", "Missing 'to' argument", map[string]any{"var_name": "to"}},
		{"wrapped api error", fmt.Errorf("sending: %w", apierr.InvalidChannel), http.StatusBadRequest, "BAD_REQUEST", "Invalid channel ID", nil},
		{"plain error", errors.New("disk on fire at /var/secret"), http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "Internal server error", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			WriteError(rec, tc.err)
			if rec.Code != tc.wantStatus {
				t.Errorf("status %d, want %d", rec.Code, tc.wantStatus)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			var body map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("body %q is not JSON: %v", rec.Body, err)
			}
			if body["result"] != "error" || body["code"] != tc.wantCode || body["msg"] != tc.wantMsg {
				t.Errorf("body %v, want result error, code %s, msg %q", body, tc.wantCode, tc.wantMsg)
			}
			for k, v := range tc.wantExtra {
				if body[k] != v {
					t.Errorf("%s = %v, want %v", k, body[k], v)
				}
			}
			if want := 3 + len(tc.wantExtra); len(body) != want {
				t.Errorf("body %v has %d fields, want %d", body, len(body), want)
			}
		})
	}
}
