package markdown

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// mentionsKey holds the *mentions of one rendering in the parser context.
var mentionsKey = parser.NewContextKey()

// mentions collects what one rendering found.
type mentions struct {
	users         Users
	userIDs       []int
	stream, topic bool
}

// Wildcard mention names: the first four address the whole channel, topic its participants.
var (
	streamWildcards = map[string]bool{"all": true, "everyone": true, "channel": true, "stream": true}
	topicWildcard   = "topic"
)

// mentionSyntax is @**name**, @**name|id** or the silent @_**name**.
var mentionSyntax = regexp.MustCompile(`^@(_?)\*\*([^*\n]+?)\*\*`)

// mentionKind tells the three kinds of mention apart.
type mentionKind int

const (
	userMention mentionKind = iota
	streamWildcardMention
	topicWildcardMention
)

// kindMention is the AST kind of a mention node.
var kindMention = ast.NewNodeKind("Mention")

// mentionNode is a resolved mention.
type mentionNode struct {
	ast.BaseInline
	kind   mentionKind
	silent bool
	userID int
	name   string // the user's full name, or the wildcard as written
}

// Kind implements ast.Node.
func (n *mentionNode) Kind() ast.NodeKind { return kindMention }

// Dump implements ast.Node, for debugging.
func (n *mentionNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"name": n.name, "user_id": strconv.Itoa(n.userID)}, nil)
}

// mentionParser turns mention syntax into mention nodes; syntax naming nobody stays text.
type mentionParser struct{}

// Trigger implements parser.InlineParser: mentions start with @.
func (mentionParser) Trigger() []byte { return []byte{'@'} }

// Parse implements parser.InlineParser.
func (mentionParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	m := mentionSyntax.FindSubmatch(line)
	if m == nil {
		return nil
	}
	found, _ := pc.Get(mentionsKey).(*mentions)
	if found == nil {
		return nil
	}
	silent, name := len(m[1]) > 0, string(m[2])
	node := &mentionNode{silent: silent, name: name}
	switch lower := strings.ToLower(name); {
	case streamWildcards[lower]:
		node.kind = streamWildcardMention
		found.stream = found.stream || !silent
	case lower == topicWildcard:
		node.kind = topicWildcardMention
		found.topic = found.topic || !silent
	default:
		if found.users == nil {
			return nil
		}
		id := 0
		if base, idText, ok := strings.Cut(name, "|"); ok {
			n, err := strconv.Atoi(idText)
			if err != nil || n <= 0 {
				return nil
			}
			name, id = base, n
		}
		userID, fullName, ok := found.users.MentionUser(name, id)
		if !ok {
			return nil
		}
		node.kind, node.userID, node.name = userMention, userID, fullName
		if !silent {
			found.userIDs = append(found.userIDs, userID)
		}
	}
	block.Advance(len(m[0]))
	return node
}

// chatRenderer writes the chat syntax goldmark does not know: mentions and emoji.
type chatRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (chatRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindMention, renderMention)
	reg.Register(kindEmoji, renderEmoji)
}

func renderMention(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*mentionNode)
	class, userID := "user-mention", strconv.Itoa(n.userID)
	switch n.kind {
	case streamWildcardMention:
		class, userID = "user-mention channel-wildcard-mention", "*"
	case topicWildcardMention:
		class, userID = "topic-mention", ""
	}
	text := n.name
	if n.silent {
		class += " silent"
	} else {
		text = "@" + text
	}
	_, _ = w.WriteString(`<span class="` + class + `"`)
	if userID != "" {
		_, _ = w.WriteString(` data-user-id="` + userID + `"`)
	}
	_, _ = w.WriteString(">")
	_, _ = w.Write(util.EscapeHTML([]byte(text)))
	_, _ = w.WriteString("</span>")
	return ast.WalkSkipChildren, nil
}
