package browser

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// Page is one tab of a headless Chromium that a test drives through the DevTools protocol
// (over --remote-debugging-pipe: no port, no WebSocket): it navigates, runs scripts in the
// page, and waits for what the page must come to show. A page that clicks, types and reads
// its own storage, where DOM and Screenshot only load one.
type Page struct {
	t        testing.TB
	cmd      *exec.Cmd
	toChrome *os.File
	session  string

	mu      sync.Mutex
	next    int
	waiting map[int]chan reply
	dead    error
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Open starts Chromium with a blank tab to drive; the test's end closes it.
func (c *Chromium) Open() *Page {
	c.t.Helper()
	toChromeR, toChromeW, err := os.Pipe()
	if err != nil {
		c.t.Fatal(err)
	}
	fromChromeR, fromChromeW, err := os.Pipe()
	if err != nil {
		c.t.Fatal(err)
	}
	cmd := exec.Command(c.path, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--user-data-dir="+c.t.TempDir(), "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{toChromeR, fromChromeW} // Chromium reads fd 3, writes fd 4
	if err := cmd.Start(); err != nil {
		c.t.Fatalf("starting chromium: %v", err)
	}
	toChromeR.Close()
	fromChromeW.Close()
	p := &Page{t: c.t, cmd: cmd, toChrome: toChromeW, waiting: map[int]chan reply{}}
	go p.read(fromChromeR)
	c.t.Cleanup(p.close)

	var target struct {
		TargetID string `json:"targetId"`
	}
	p.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	p.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	p.session = attached.SessionID
	p.call(p.session, "Page.enable", nil, nil)
	// confirm() and alert() would wait for a person: the page gets "yes" at once.
	p.call(p.session, "Page.addScriptToEvaluateOnNewDocument", map[string]any{
		"source": "window.confirm = function () { return true; }; window.alert = function () {};"}, nil)
	return p
}

// read hands each reply to the call waiting for it; events are not needed.
func (p *Page) read(from *os.File) {
	r := bufio.NewReader(from)
	for {
		msg, err := r.ReadBytes(0)
		if err != nil {
			p.mu.Lock()
			p.dead = fmt.Errorf("chromium closed the DevTools pipe: %w", err)
			for id, ch := range p.waiting {
				close(ch)
				delete(p.waiting, id)
			}
			p.mu.Unlock()
			return
		}
		var m struct {
			ID int `json:"id"`
			reply
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue
		}
		p.mu.Lock()
		ch := p.waiting[m.ID]
		delete(p.waiting, m.ID)
		p.mu.Unlock()
		if ch != nil {
			ch <- m.reply
		}
	}
}

// call sends one DevTools command and decodes its result into out (nil: ignore it).
func (p *Page) call(session, method string, params any, out any) {
	p.t.Helper()
	p.mu.Lock()
	if p.dead != nil {
		p.mu.Unlock()
		p.t.Fatalf("%s: %v", method, p.dead)
	}
	p.next++
	id := p.next
	ch := make(chan reply, 1)
	p.waiting[id] = ch
	p.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	data, _ := json.Marshal(msg)
	if _, err := p.toChrome.Write(append(data, 0)); err != nil {
		p.t.Fatalf("%s: %v", method, err)
	}
	select {
	case r, ok := <-ch:
		switch {
		case !ok:
			p.t.Fatalf("%s: %v", method, p.dead)
		case r.Error != nil:
			p.t.Fatalf("%s: %s", method, r.Error.Message)
		case out != nil:
			if err := json.Unmarshal(r.Result, out); err != nil {
				p.t.Fatalf("%s: %v", method, err)
			}
		}
	case <-time.After(30 * time.Second):
		p.t.Fatalf("%s: no answer from chromium in 30 s", method)
	}
}

// Navigate loads url in the tab and waits until the new document has loaded.
func (p *Page) Navigate(url string) {
	p.t.Helper()
	p.Eval("window.chatconformOldDocument = true", nil)
	p.call(p.session, "Page.navigate", map[string]any{"url": url}, nil)
	p.WaitFor("the page "+url, `!window.chatconformOldDocument && document.readyState === "complete"`, 30*time.Second)
}

// Eval runs a JavaScript expression in the page (a promise is awaited) and decodes its value
// into out, if out is not nil; an exception fails the test.
func (p *Page) Eval(expression string, out any) {
	p.t.Helper()
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	p.call(p.session, "Runtime.evaluate", map[string]any{"expression": expression, "awaitPromise": true, "returnByValue": true}, &res)
	if res.Exception != nil {
		p.t.Fatalf("%s: %s %s", expression, res.Exception.Text, res.Exception.Exception.Description)
	}
	if out != nil && len(res.Result.Value) > 0 {
		if err := json.Unmarshal(res.Result.Value, out); err != nil {
			p.t.Fatalf("%s: %v (value %s)", expression, err, res.Result.Value)
		}
	}
}

// WaitFor evaluates a JavaScript condition until it is true (one that throws is not yet), for
// at most timeout, and fails the test with what, and the page's text, if it never is.
func (p *Page) WaitFor(what, condition string, timeout time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		p.Eval("(function () { try { return Boolean("+condition+"); } catch (e) { return false; } })()", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var body string
			p.Eval("document.body ? document.body.innerText.slice(0, 2000) : ''", &body)
			p.t.Fatalf("waited %s for %s (%s); the page shows:\n%s", timeout, what, condition, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p *Page) close() {
	_ = p.toChrome.Close() // Chromium exits when its pipe closes
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}
