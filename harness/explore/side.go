package explore

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chatconform/chatconform/harness"
	"github.com/golang-jwt/jwt/v5"
)

// actorNames are who a step may act as: one account of every role the harness provisions,
// and "anonymous", who sends no credentials.
var actorNames = []string{"owner", "administrator", "moderator", "member", "guest", "bot", "anonymous", "member-wrong-key", "bot-wrong-key",
	"member-with-guest-key"}

// readers are the actors who read back after every step: the accounts.
var readers = actorNames[:6]

// wrongKey is the API key the *-wrong-key actors send with their account's email.
const wrongKey = "WrongKey000000000000000000000000" // well-formed: 32 letters and digits

// Reply is one answer as the comparator sees it.
type Reply struct {
	Status int `json:"status"`
	// Body is the decoded JSON (numbers as json.Number), or the text when it is not JSON.
	Body any `json:"body"`
}

// success says whether the reply is a success envelope.
func (r Reply) success() bool {
	obj, ok := r.Body.(map[string]any)
	return ok && obj["result"] == "success"
}

// field returns a top-level field of the body.
func (r Reply) field(name string) any {
	obj, _ := r.Body.(map[string]any)
	return obj[name]
}

// Side is one of the two servers of a run: the target or the reference. It resolves a step's
// tokens to its own IDs and names, and maps the IDs it sees back to the run's symbols.
type Side struct {
	Name   string
	URL    string
	client *http.Client
	// prefix starts every name the run gives (channels, storage keys); both sides use the
	// same, so names compare as they are.
	prefix string
	actors map[string]harness.User
	syms   *symbols
	// queues are the actors' event queues: ID and the last event read; eventTypes what
	// they ask for.
	queues     map[string]*queue
	eventTypes []string
	// names maps the actors' emails and full names to a placeholder, for comparison;
	// uploads the paths of the run's uploaded files ("<upload:f1>").
	names *strings.Replacer
	// learned are old/new pairs the run learned: the paths of its uploaded files
	// ("<upload:f1>") and the dummy emails of its accounts ("<dummy:u1>").
	learned []string
	// host is the realm's host, of the dummy emails.
	host string
	// visibility is the realm's default email visibility before the run changed it ("" when
	// it has not), which the cleanup puts back.
	visibility string
	// updateIDs are the presence_last_update_id each actor last received ("{update:actor}").
	updateIDs map[string]string
	// ownVisibility are the email visibilities of the cast members who changed theirs (by
	// actor), as they were before, which the cleanup puts back.
	ownVisibility map[string]string
	// uploaders are who uploaded each of the run's attachments (by ID), to delete them at
	// the end.
	uploaders map[string]string
	// clockOffset is how far the side's clock is ahead of this machine's, in seconds.
	clockOffset float64
	// config, tokens and limits are what the sequence changed and puts back at its end: the
	// fake's configuration values before it changed them (JSON), the users (by ID) whose
	// video-call token it set, and the realm's editing limits ("unlimited" for none).
	config map[string]string
	tokens map[string]bool
	limits map[string]string
	// jwtKey is the key the side verifies JSON Web Tokens with, once the run knows it: the
	// target's setting, or the key a control step gave the fake ("" for none).
	jwtKey, jwtAlgorithm string
	// legacyPush are the legacy push registrations the run added (actor, token), which
	// the cleanup removes.
	legacyPush [][2]string
	// reminders are the reminders the run set (actor, ID): one left to fall due in a later
	// sequence would send a message the fresh reference never sends.
	reminders [][2]string
	// Exchanges records the requests of the sequence, for the reproduction.
	log []Exchange
}

type queue struct {
	id   string
	last string
}

// Exchange is one request a side sent and what came back, for a finding's reproduction.
type Exchange struct {
	Actor  string `json:"actor"`
	Method string `json:"method"`
	URL    string `json:"url"`
	Body   string `json:"body,omitempty"`
	// Form is a multipart request's fields as curl's -F takes them ("file=@f1.txt").
	Form   []string `json:"form,omitempty"`
	Status int      `json:"status"`
	Reply  string   `json:"reply"`
}

// newSide describes a connected target as one side of a run.
func newSide(name string, t *harness.Target, prefix string) *Side {
	s := &Side{
		Name: name, URL: t.URL, client: t.HTTPClient(), prefix: prefix,
		actors: map[string]harness.User{}, syms: newSymbols(), queues: map[string]*queue{}, uploaders: map[string]string{},
		config: map[string]string{}, tokens: map[string]bool{}, updateIDs: map[string]string{}, ownVisibility: map[string]string{},
		clockOffset: t.ClockOffset().Seconds(), host: t.Realm.Host,
		jwtKey: t.Config.JWTKey, jwtAlgorithm: cmp.Or(t.Config.JWTAlgorithm, "HS256"),
	}
	var pairs []string
	for _, r := range harness.Roles {
		u, ok := t.Users[r]
		if !ok {
			continue
		}
		name := string(r)
		s.actors[name] = u
		s.syms.bind("user", name, strconv.Itoa(u.ID))
		pairs = append(pairs, u.Email, "<email:"+name+">", u.FullName, "<name:"+name+">",
			fmt.Sprintf("user%d@%s", u.ID, t.Realm.Host), "<dummy:"+name+">", u.APIKey, "<api_key:"+name+">")
	}
	// Longer first, so that no placeholder replaces a part of another's text.
	s.names = strings.NewReplacer(longestFirst(pairs)...)
	return s
}

// longestFirst orders old/new pairs by the old text's length, longest first.
func longestFirst(pairs []string) []string {
	type pair struct{ old, new string }
	ps := make([]pair, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] != "" {
			ps = append(ps, pair{pairs[i], pairs[i+1]})
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].old) > len(ps[j].old) })
	out := make([]string, 0, 2*len(ps))
	for _, p := range ps {
		out = append(out, p.old, p.new)
	}
	return out
}

// normalize is a string as the comparator reads it: the run's prefix and the actors'
// emails and names replaced by placeholders.
func (s *Side) normalize(text string) string {
	if len(s.learned) > 0 {
		text = strings.NewReplacer(s.learned...).Replace(text)
	}
	return s.names.Replace(strings.ReplaceAll(text, s.prefix, "<P>"))
}

// resolve replaces a text's tokens by the side's values.
func (s *Side) resolve(text string) string {
	return token.ReplaceAllStringFunc(text, func(t string) string {
		m := token.FindStringSubmatch(t)
		kind, sep, arg := m[1], m[2], m[3]
		switch kind {
		case "name":
			return s.prefix + arg
		case "email":
			if u, ok := s.actors[arg]; ok {
				return u.Email
			}
		case "dummy":
			if id, ok := s.syms.raw("user", ":"+arg); ok {
				return "user" + id + "@" + s.host
			}
		case "now":
			n, _ := strconv.Atoi(arg)
			if sep == "-" {
				n = -n
			}
			return strconv.FormatInt(s.now()+int64(n), 10)
		case "jwt":
			return s.jwtFor(arg)
		case "update":
			// The presence_last_update_id the actor last received on this side: each
			// server's own count.
			if v, ok := s.updateIDs[arg]; ok {
				return v
			}
			return "-1"
		case "tokenid":
			sum := sha256.Sum256([]byte(s.prefix + arg))
			return base64.StdEncoding.EncodeToString(sum[:8])
		default:
			if raw, ok := s.syms.raw(kind, sep+arg); ok {
				return raw
			}
		}
		return missingID
	})
}

// now is the side's clock, in UNIX seconds.
func (s *Side) now() int64 { return time.Now().Unix() + int64(s.clockOffset) }

// jwtFor is a JSON Web Token for the actor's email (anyone's, for one not in the cast),
// valid for a day, signed with the side's key, or with another for "<actor>/forged".
func (s *Side) jwtFor(arg string) string {
	actor, forged := strings.CutSuffix(arg, "/forged")
	email := "nobody@example.invalid"
	if u, ok := s.actors[actor]; ok {
		email = u.Email
	}
	key := s.jwtKey
	if forged {
		key = "explore-forged-key"
	}
	method := jwt.GetSigningMethod(s.jwtAlgorithm)
	if method == nil {
		return "not-a-token"
	}
	signed, err := jwt.NewWithClaims(method, jwt.MapClaims{"email": email, "exp": s.now() + 86400}).SignedString([]byte(key))
	if err != nil {
		return "not-a-token"
	}
	return signed
}

// send sends one request as the actor and decodes the answer. A transport failure is an
// error: the side cannot be compared.
func (s *Side) send(ctx context.Context, actor, method, path string, params map[string]string) (Reply, error) {
	values := url.Values{}
	file := ""
	for k, v := range params {
		if k == "@file" {
			file = s.resolve(v)
			continue
		}
		values.Set(k, s.resolve(v))
	}
	target := s.URL + "/api/v1" + s.resolve(path)
	var req *http.Request
	var logged string
	var form []string
	if file != "" {
		data, contentType, err := multipartBody(values, file)
		if err != nil {
			return Reply{}, err
		}
		if req, err = http.NewRequestWithContext(ctx, method, target, bytes.NewReader(data)); err != nil {
			return Reply{}, err
		}
		req.Header.Set("Content-Type", contentType)
		form = []string{"file=@" + file}
		for k := range values {
			form = append(form, k+"="+values.Get(k))
		}
	} else {
		var err error
		if req, logged, err = formRequest(ctx, method, target, values); err != nil {
			return Reply{}, err
		}
	}
	req.Header.Set("User-Agent", "chatconform-explore")
	if u, ok := s.actors[actor]; ok {
		req.SetBasicAuth(u.Email, u.APIKey)
	} else if account, wrong := strings.CutSuffix(actor, "-wrong-key"); wrong {
		req.SetBasicAuth(s.actors[account].Email, wrongKey)
	} else if account, other, mixed := strings.Cut(strings.TrimSuffix(actor, "-key"), "-with-"); mixed {
		req.SetBasicAuth(s.actors[account].Email, s.actors[other].APIKey) // another's real key
	}
	return s.do(req, actor, logged, form, 8<<20)
}

// formRequest is a request carrying values as a GET's query or as another method's form
// body; logged is the body as the side's log shows it.
func formRequest(ctx context.Context, method, target string, values url.Values) (req *http.Request, logged string, err error) {
	encoded := values.Encode()
	var body io.Reader
	if method == http.MethodGet {
		if encoded != "" {
			target += "?" + encoded
		}
	} else {
		body, logged = strings.NewReader(encoded), encoded
	}
	if req, err = http.NewRequestWithContext(ctx, method, target, body); err != nil {
		return nil, "", err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return req, logged, nil
}

// do sends req, reads at most limit bytes of its answer, decodes it (numbers kept as they
// were written; an answer that is not JSON stays text) and adds the exchange to the log.
func (s *Side) do(req *http.Request, actor, logged string, form []string, limit int64) (Reply, error) {
	method, path := req.Method, req.URL.Path
	resp, err := s.client.Do(req)
	if err != nil {
		return Reply{}, s.fail("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil {
		return Reply{}, s.fail("%s %s: reading the answer: %w", method, path, err)
	}
	r := Reply{Status: resp.StatusCode}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&r.Body); err != nil {
		r.Body = string(raw)
	}
	s.log = append(s.log, Exchange{Actor: actor, Method: method, URL: strings.TrimPrefix(req.URL.String(), s.URL), Body: logged, Form: form, Status: r.Status, Reply: clip(string(raw), 2000)})
	return r, nil
}

// multipartBody is a form with one file, named file, whose content is a line naming it.
func multipartBody(values url.Values, file string) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k := range values {
		if err := w.WriteField(k, values.Get(k)); err != nil {
			return nil, "", err
		}
	}
	part, err := w.CreateFormFile("file", file)
	if err != nil {
		return nil, "", err
	}
	if _, err := fmt.Fprintf(part, "chatconform explore: %s\n", file); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// learnUser names the account a creation made, and its dummy email.
func (s *Side) learnUser(name string, r Reply) {
	if id := s.learnID("user", name, "user_id", r); id != "" {
		// The host of dummy addresses is the server's own choice (its realm's host name).
		s.learned = append(s.learned, "user"+id+"@", "<dummy:"+name+">@")
	}
}

// learnID names the ID a successful reply gives in field, and returns it ("" for none).
func (s *Side) learnID(kind, name, field string, r Reply) string {
	id := rawText(r.field(field))
	if !r.success() || id == "" {
		return ""
	}
	s.syms.bind(kind, name, id)
	return id
}

// rememberVisibility reads the realm's default email visibility before the run first changes it.
func (s *Side) rememberVisibility(ctx context.Context) error {
	if s.visibility != "" {
		return nil
	}
	r, err := s.ownerState(ctx, "realm_user_settings_defaults")
	if err != nil {
		return err
	}
	defaults, _ := r.field("realm_user_settings_defaults").(map[string]any)
	if v, ok := defaults["email_address_visibility"]; ok {
		s.visibility = rawText(v)
	}
	return nil
}

// rememberOwnVisibility reads an actor's own email visibility before the run first changes it.
func (s *Side) rememberOwnVisibility(ctx context.Context, actor string) error {
	if _, kept := s.ownVisibility[actor]; kept {
		return nil
	}
	r, err := s.state(ctx, actor, "user_settings")
	if err != nil {
		return err
	}
	settings, _ := r.field("user_settings").(map[string]any)
	if v, ok := settings["email_address_visibility"]; ok {
		s.ownVisibility[actor] = rawText(v)
	}
	return nil
}

// ownerState reads one part of the registration state as the owner.
func (s *Side) ownerState(ctx context.Context, part string) (Reply, error) {
	return s.state(ctx, "owner", part)
}

// state reads one part of the registration state as an actor, and deletes the queue the
// registration opened.
func (s *Side) state(ctx context.Context, actor, part string) (Reply, error) {
	r, err := s.send(ctx, actor, http.MethodPost, "/register", map[string]string{
		"event_types": jsonText([]string{part}), "fetch_event_types": jsonText([]string{part})})
	if err == nil {
		s.closeQueue(ctx, actor, r)
	}
	return r, err
}

// learnFields names the realm's custom profile fields by their names.
func (s *Side) learnFields(ctx context.Context) error {
	r, err := s.send(ctx, "owner", http.MethodGet, "/realm/profile_fields", nil)
	if err != nil {
		return err
	}
	fields, _ := r.field("custom_fields").([]any)
	for _, f := range fields {
		if obj, _ := f.(map[string]any); obj["name"] != nil {
			s.syms.bind("field", fmt.Sprint(obj["name"]), rawText(obj["id"]))
		}
	}
	return nil
}

// learnUpload names the file an upload made: its path, which the comparison then reads as
// "<upload:NAME>", and its attachment ID, from the uploader's attachments.
func (s *Side) learnUpload(ctx context.Context, actor, name string, r Reply) error {
	uri, _ := r.field("uri").(string)
	path, ok := strings.CutPrefix(uri, "/user_uploads/")
	if !r.success() || !ok || path == "" {
		return nil
	}
	s.syms.bind("upload", name, path)
	s.learned = append(s.learned, path, "<upload:"+name+">")
	list, err := s.send(ctx, actor, http.MethodGet, "/attachments", nil)
	if err != nil {
		return err
	}
	atts, _ := list.field("attachments").([]any)
	for _, a := range atts {
		if obj, _ := a.(map[string]any); obj["path_id"] == path {
			s.syms.bind("attachment", name, rawText(obj["id"]))
			s.uploaders[rawText(obj["id"])] = actor
		}
	}
	return nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// symbols maps each side's IDs to the run's names for them, per kind: a name the run gave
// ("member", "c3") or the order in which the run first saw the ID ("#0", "#1", …).
type symbols struct {
	byRaw map[string]map[string]string
	bySym map[string]map[string]string
	seen  map[string]int
}

func newSymbols() *symbols {
	return &symbols{byRaw: map[string]map[string]string{}, bySym: map[string]map[string]string{}, seen: map[string]int{}}
}

// bind names an ID.
func (y *symbols) bind(kind, name, raw string) {
	if y.byRaw[kind] == nil {
		y.byRaw[kind], y.bySym[kind] = map[string]string{}, map[string]string{}
	}
	sym := ":" + name
	y.byRaw[kind][raw] = sym
	y.bySym[kind][sym] = raw
}

// symbol returns an ID's symbol, giving it the next number when it is new.
func (y *symbols) symbol(kind, raw string) string {
	if sym, ok := y.lookup(kind, raw); ok {
		return sym
	}
	if y.byRaw[kind] == nil {
		y.byRaw[kind], y.bySym[kind] = map[string]string{}, map[string]string{}
	}
	sym := "#" + strconv.Itoa(y.seen[kind])
	y.seen[kind]++
	y.byRaw[kind][raw] = sym
	y.bySym[kind][sym] = raw
	return sym
}

// lookup returns an ID's symbol without giving a new one.
func (y *symbols) lookup(kind, raw string) (string, bool) {
	sym, ok := y.byRaw[kind][raw]
	if !ok {
		return "", false
	}
	return kind + sym, true
}

// raw returns the ID of a symbol (":member", "#2").
func (y *symbols) raw(kind, sym string) (string, bool) {
	raw, ok := y.bySym[kind][sym]
	return raw, ok
}

// SideError is an error of one side of a run: the target ("target") or the reference. One of
// the target's that the reference does not share (a cast it refuses) is what a broken target
// shows before any step.
type SideError struct {
	Side string
	Err  error
}

func (e *SideError) Error() string { return e.Side + ": " + e.Err.Error() }
func (e *SideError) Unwrap() error { return e.Err }

// fail is an error of this side.
func (s *Side) fail(format string, args ...any) error {
	return &SideError{Side: s.Name, Err: fmt.Errorf(format, args...)}
}
