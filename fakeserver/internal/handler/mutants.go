package handler

import (
	"net/http"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// mutatedError is the error a mutant or variant answers in place of e (package mutation):
// a documented code replaced by the generic one, or another message text or status where
// the document shows none. Without the mutants build tag it is e itself.
func mutatedError(e *apierr.Error) *apierr.Error {
	out := *e // e may be a shared value (apierr.MustBeAdmin): never change it
	switch {
	case e.Code == "UNAUTHORIZED_PRINCIPAL" && mutation.On("code-unauthorized-principal-as-bad-request"),
		e.Code == "PERMISSION_DENIED" && mutation.On("code-permission-denied-as-bad-request"),
		e.Code == "PUSH_SERVICE_NOT_CONFIGURED" && mutation.On("code-push-not-configured-as-bad-request"),
		e.Code == "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED" && mutation.On("code-move-time-limit-as-bad-request"),
		e.Code == "STREAM_WILDCARD_MENTION_NOT_ALLOWED" && mutation.On("code-stream-wildcard-as-bad-request"),
		e.Code == "TOPIC_WILDCARD_MENTION_NOT_ALLOWED" && mutation.On("code-topic-wildcard-as-bad-request"):
		out.Code = "BAD_REQUEST"
	case e.Code == "UNAUTHORIZED" && mutation.On("code-unauthorized-as-bad-request"):
		out.Code, out.Status = "BAD_REQUEST", http.StatusBadRequest
	case mutation.On("variant-error-messages-reworded"):
		out.Msg = "Refused: " + e.Msg
	case e.Status == http.StatusBadRequest && mutation.On("variant-bad-request-as-422"):
		out.Status = http.StatusUnprocessableEntity
	default:
		return e
	}
	return &out
}

// The switches of the class sweeps (docs/mutation-sweeps.md).

// ignoredUnlistedFor: a server whose PATCH and DELETE parameter readers do not record what
// the endpoint took, so those replies never list an ignored parameter.
func ignoredUnlistedFor(r *http.Request) bool {
	return (r.Method == http.MethodPatch || r.Method == http.MethodDelete) &&
		mutation.On("ignored-parameters-unlisted-on-patch-delete")
}

// ignoredListed is the value of ignored_parameters_unsupported: the names, or objects naming
// them where the variant makes the other choice the document leaves open (the elements'
// shape is not shown).
func ignoredListed(names []string) any {
	if !mutation.On("variant-ignored-parameters-as-objects") {
		return names
	}
	objects := make([]map[string]string, len(names))
	for i, n := range names {
		objects[i] = map[string]string{"parameter": n}
	}
	return objects
}

// missingCredentialsMsg is the msg of a request without credentials, or one that names a wrong
// API key where no key was sent.
func missingCredentialsMsg() string {
	if mutation.On("missing-credentials-msg-invalid-key") {
		return "Invalid API key"
	}
	return "Not logged in: API authentication or user session required"
}

// reworded is e, or under the variant an UNAUTHORIZED error in one wording for every cause
// (the document's msg says only that authentication is required).
func reworded(e *apierr.Error) *apierr.Error {
	if e.Code != "UNAUTHORIZED" || !mutation.On("variant-unauthorized-one-wording") {
		return e
	}
	out := *e
	out.Msg = "Authentication required: send a valid API key"
	return &out
}
