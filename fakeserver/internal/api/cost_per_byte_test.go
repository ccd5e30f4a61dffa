package api_test

// A large parameter must cost the fake work linear in its size (issue 32): a 1 MiB linkifier
// pattern once took seconds to compile. TestCostPerByte sends each string, list and object
// parameter of the bad-input route table at a small and at its largest size and compares what
// the request allocates per byte of the value: most work a handler does on a value leaves
// allocations behind in Go, and they are counted exactly whatever the machine's speed or load,
// where a time would not be (the project has no timed tests). Work that allocates nothing
// escapes it (docs/bounds.md names the cases found by hand).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
)

// costFactor is how much more a byte of the large value may cost than a byte of the small
// one. A linear handler's cost per byte is the same at both sizes up to the slack of buffers
// that double as they grow (each a factor of at most 2 either way, for where a size falls
// between two powers of two), so 4 leaves room for that; a quadratic one's cost per byte
// grows with the size, 16 times from the small value to the large one (costSizeRatio), and an
// n log n one's by about log(L)/log(S), 1.25, which is linear enough.
const costFactor = 4

// costSizeRatio is how many times the large value is the small one.
const costSizeRatio = 16

// costLarge is the size of a parameter's large value when it has no bound of its own below it.
// The body's bound (25 MB) is a hundred times more, and the bad-input table sends 1 MiB, but
// a quadratic cost shows at any size with the sixteen times between the two values, and at
// 256 KiB the whole table runs in seconds (lists of integers cost about 40 bytes a byte).
const costLarge = 256 << 10

// largestPattern is about the longest linkifier pattern the fake compiles: a literal of one
// instruction a character, within the program bound of docs/bounds.md (about 175,000
// instructions, the real server's RE2 default); a longer one is refused before it is compiled.
const largestPattern = 174_000

// grower makes a parameter's value of about n bytes from its valid value (""
// when the table's valid request has none).
type grower func(valid string, n int) string

// padded is the valid value with letters after it: a longer channel name, a longer pattern
// (a literal tail), a longer template.
func padded(valid string, n int) string { return valid + strings.Repeat("a", max(n-len(valid), 0)) }

// repeatedElements is the valid JSON list with its elements repeated until it holds n bytes
// (["a"] when it has none).
func repeatedElements(valid string, n int) string {
	var elems []json.RawMessage
	if json.Unmarshal([]byte(valid), &elems) != nil || len(elems) == 0 {
		elems = []json.RawMessage{json.RawMessage(`"a"`)}
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(elems[i%len(elems)])
	}
	b.WriteByte(']')
	return b.String()
}

// distinctStrings is a JSON list of distinct strings of n bytes in all.
func distinctStrings(_ string, n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"s%d"`, i)
	}
	b.WriteByte(']')
	return b.String()
}

// manyKeys is the valid JSON object with keys added until it holds n bytes.
func manyKeys(valid string, n int) string {
	obj := map[string]json.RawMessage{}
	_ = json.Unmarshal([]byte(valid), &obj)
	var b strings.Builder
	b.WriteByte('{')
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		key, _ := json.Marshal(k)
		fmt.Fprintf(&b, "%s:%s,", key, obj[k])
	}
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `"k%d":"v",`, i)
	}
	return strings.TrimSuffix(b.String(), ",") + "}"
}

// byKind is the grower of a kind of parameter; integers and booleans are short by nature.
var byKind = map[kind]grower{
	kString: padded, kEnum: padded, kStrList: distinctStrings, kJSONList: repeatedElements, kJSONDict: manyKeys,
}

// costRow is a parameter whose large value needs its own shape or size.
type costRow struct {
	grow grower
	// large is the largest value the fake accepts, where a bound below costLarge holds it;
	// 0 is costLarge.
	large int
}

// costRows are the parameters whose large value is not their kind's, and those the bad-input
// table neither lists nor sends (optional ones its cases leave out), by "METHOD pattern name".
var costRows = map[string]costRow{
	"POST /api/v1/realm/filters pattern":                      {grow: padded, large: largestPattern},
	"PATCH /api/v1/realm/filters/{filter_id:[0-9]+} pattern":  {grow: padded, large: largestPattern},
	"POST /api/v1/messages subject":                           {grow: padded},
	"PATCH /api/v1/messages/{message_id:[0-9]+} subject":      {grow: padded},
	"POST /api/v1/invites invite_expires_in_minutes":          {grow: padded},
	"POST /api/v1/invites/multiuse invite_expires_in_minutes": {grow: padded},
	"POST /api/v1/channels/create folder_id":                  {grow: padded},
	"PATCH /api/v1/streams/{stream_id:[0-9]+} folder_id":      {grow: padded},
	"PATCH /_fake/config jwt_key":                             {grow: padded},
	"PATCH /_fake/config jwt_algorithm":                       {grow: padded},
	"GET /_fake/journal method":                               {grow: padded},
	"GET /_fake/journal user":                                 {grow: padded},
	"GET /_fake/journal since":                                {grow: padded},
	"POST /_fake/faults method":                               {grow: padded},
	"POST /_fake/faults user":                                 {grow: padded},
	"POST /_fake/faults code":                                 {grow: padded},
	"POST /_fake/faults msg":                                  {grow: padded},
	"GET /_fake/inspect method":                               {grow: padded},
	"GET /_fake/inspect user":                                 {grow: padded},
	"GET /_fake/inspect q":                                    {grow: padded},
}

// costCase is one parameter of one route, as TestCostPerByte sends it.
type costCase struct {
	rs    routeSpec
	name  string
	grow  grower
	large int
}

// kindOfValue is the kind of a parameter the table's valid request carries but does not list
// in its params: a JSON list or object, or a string (integers and booleans have none).
func kindOfValue(v string) (kind, bool) {
	switch {
	case strings.HasPrefix(v, "["):
		return kJSONList, true
	case strings.HasPrefix(v, "{"):
		return kJSONDict, true
	case v == "true" || v == "false":
		return kBool, false
	}
	if _, err := strconv.Atoi(v); err == nil {
		return kInt, false
	}
	return kString, true
}

// costCases are the string, list and object parameters of every route of the bad-input
// table: those it lists and those its valid request carries.
func costCases() []costCase {
	var out []costCase
	for _, rs := range routeTable() {
		if rs.unknowable != "" {
			continue
		}
		kinds := map[string]kind{}
		var names []string
		for _, p := range rs.params {
			if _, ok := byKind[p.kind]; ok {
				kinds[p.name] = p.kind
				names = append(names, p.name)
			}
		}
		for i := 0; i+1 < len(rs.valid); i += 2 {
			name := rs.valid[i]
			if k, ok := kindOfValue(rs.valid[i+1]); ok && !slices.ContainsFunc(rs.params, func(p param) bool { return p.name == name }) {
				kinds[name] = k
				names = append(names, name)
			}
		}
		route := rs.method + " " + rs.pattern + " "
		for _, key := range slices.Sorted(maps.Keys(costRows)) {
			if name, ok := strings.CutPrefix(key, route); ok && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
		for _, name := range names {
			c := costCase{rs: rs, name: name, grow: byKind[kinds[name]], large: costLarge}
			if row, ok := costRows[rs.method+" "+rs.pattern+" "+name]; ok {
				c.grow = row.grow
				if row.large != 0 {
					c.large = row.large
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// serveAllocated is what serving req allocates, in bytes, on the fake behind h, and the status.
func serveAllocated(h http.Handler, req request) (uint64, int) {
	target := req.path
	if req.query != "" {
		target += "?" + req.query
	}
	hr := httptest.NewRequest(req.method, target, bytes.NewReader(req.body))
	if req.contentType != "" {
		hr.Header.Set("Content-Type", req.contentType)
	}
	if req.auth != "" {
		hr.Header.Set("Authorization", req.auth)
	}
	hr.Host = "127.0.0.1" // the control API answers only requests addressed to this machine
	hr.Header.Set(fakeserver.SpecHeader, "fakeserver unit test")
	for k, v := range req.headers {
		hr.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	return allocated(func() { h.ServeHTTP(rec, hr) }), rec.Code
}

func TestCostPerByte(t *testing.T) {
	byRoute := map[string][]costCase{}
	var order []string
	for _, c := range costCases() {
		key := c.rs.method + " " + c.rs.pattern
		if byRoute[key] == nil {
			order = append(order, key)
		}
		byRoute[key] = append(byRoute[key], c)
	}
	for _, key := range order {
		t.Run(key, func(t *testing.T) {
			ts := newServer(t)
			setUp(t, ts.URL)
			resets := 0
			for _, c := range byRoute[key] {
				t.Run(c.name, func(t *testing.T) { checkCostPerByte(t, ts, &resets, c) })
			}
		})
	}
}

// checkCostPerByte sends c's valid request, then its value at a sixteenth of its large size,
// then at its large size, each on the fake as setUp leaves it (a request that changed
// something is undone by a reset), and compares the cost of a byte added between the first
// two with one added between the last two.
func checkCostPerByte(t *testing.T, ts *fakeserver.TestServer, resets *int, c costCase) {
	valid := c.rs.validValues().Get(c.name)
	sizes := []string{valid, c.grow(valid, c.large/costSizeRatio), c.grow(valid, c.large)}
	var cost [3]uint64
	var status [3]int
	measure := func() {
		for i, v := range sizes {
			vals := c.rs.validValues()
			vals.Set(c.name, v)
			req := badCase{req: c.rs.build(vals)}.withOwnerQueue(*resets).req
			n, code := serveAllocated(ts.Server, req)
			if cost[i] == 0 || n < cost[i] {
				cost[i] = n
			}
			status[i] = code
			if code < 300 && req.method != http.MethodGet {
				freshState(t, ts.URL)
				*resets++
			}
		}
	}
	// What another goroutine of the process allocates meanwhile counts too (the counter is the
	// process's): a ratio over the bound is measured twice more, and each size keeps its
	// least cost, which such noise only ever raises.
	measure()
	// A byte's cost is what the bytes added since the smaller value cost; where they cost
	// nothing or less (the smaller value took a costlier path: accepted, the larger refused),
	// it is the larger request's cost a byte, which bounds it from above. A byte is read at
	// least once: the floor keeps a value the handler never touches from making the ratio of
	// two noises.
	perByte := func(i int) float64 {
		if cost[i] <= cost[i-1] {
			return max(float64(cost[i])/float64(len(sizes[i])), 1)
		}
		return max(float64(cost[i]-cost[i-1])/float64(len(sizes[i])-len(sizes[i-1])), 1)
	}
	small, large := perByte(1), perByte(2)
	for range 2 {
		if large <= costFactor*small {
			break
		}
		measure()
		small, large = perByte(1), perByte(2)
	}
	t.Logf("%s %s %s: %d B: HTTP %d, %d B | %d B: HTTP %d, %.1f B/B | %d B: HTTP %d, %.1f B/B",
		c.rs.method, c.rs.pattern, c.name, len(sizes[0]), status[0], cost[0],
		len(sizes[1]), status[1], small, len(sizes[2]), status[2], large)
	if large > costFactor*small {
		t.Errorf("a byte of a %d-byte %s costs %.1f bytes allocated, %.1f times a byte of a %d-byte one (%.1f): super-linear",
			len(sizes[2]), c.name, large, large/small, len(sizes[1]), small)
	}
}

// stringReaders are the calls through which a handler of the API or the control API reads a
// string, list or object parameter by its literal name.
var stringReaders = regexp.MustCompile(`(?:\.P\.(?:String|RequiredString|Enum|RequiredEnum|JSON|Size)|\b(?:optionalString|stringList|intList|queueList))\((?:c, )?"([a-z_0-9]+)"`)

// costUnmeasured are the names a handler reads that no route's case carries, and why.
var costUnmeasured = map[string]string{
	// Read only below the fixture's level, where the table does not run; each becomes its
	// successor's value by one regular-expression replacement or concatenation (linear) and
	// then takes its successor's path, which is measured.
	"url_format_string": "linkifiers below level 176 (url_template)",
	"url_prefix":        "playgrounds below level 196 (url_template)",
	"push_public_key":   "push registration below level 432 (push_key)",
}

// TestCostPerByteCoversParameters: every string, list or object parameter a handler reads by
// name is measured on some route by TestCostPerByte (the table is the bad-input table's, so a
// route missing there fails TestRouteTableCoversRouter), and every costRows entry names one.
func TestCostPerByteCoversParameters(t *testing.T) {
	measured, rows := map[string]bool{}, maps.Clone(costRows)
	for _, c := range costCases() {
		measured[c.name] = true
		delete(rows, c.rs.method+" "+c.rs.pattern+" "+c.name)
	}
	for key := range rows {
		t.Errorf("costRows has %s, which is no parameter of the bad-input table", key)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	control, _ := filepath.Glob("../control/*.go")
	read := map[string]string{}
	for _, f := range append(files, control...) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range stringReaders.FindAllStringSubmatch(string(src), -1) {
			read[m[1]] = f
		}
	}
	for name, f := range read {
		if _, ok := costUnmeasured[name]; !measured[name] && !ok {
			t.Errorf("%s reads the parameter %s, which no route of the bad-input table lists or sends: add it to the route's params or valid request", f, name)
		}
	}
	t.Logf("%d parameter names read, %d measured", len(read), len(measured))
}

// TestRenderTruncatesAsSendDoes: POST /messages/render renders at most what a sent message
// keeps (10,000 characters, then the truncation marker): Markdown costs more than linear time
// on some shapes, which no count of allocations shows ("[a](" repeated allocates 115 bytes a
// byte at any length, but 256 KB of it took 60 s to render, 10,000 characters 25 ms).
func TestRenderTruncatesAsSendDoes(t *testing.T) {
	ts := newServer(t)
	long := strings.Repeat("[a](", 64<<10)
	rendered := requireSuccess(t, "render", post(t, ts.URL, memberAuth, "/api/v1/messages/render", "content", long))["rendered"]
	id := msgSend(t, ts.URL, memberAuth, "render", long)
	sent := msgFetch(t, ts.URL, memberAuth, id)["content"]
	if rendered != sent {
		t.Errorf("256 KB rendered as\n%.300s\nwhere the sent message shows\n%.300s", rendered, sent)
	}
}
