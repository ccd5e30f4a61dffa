package realm

import (
	"encoding/json"
	"strings"
)

// attachWidget gives a message that starts a widget (/poll or /todo, as on the real server) its
// widget submessage, sent by the message's sender, before anyone is told of the message.
func (s *MessageState) attachWidget(m *Message) {
	data, ok := widgetData(m.Content)
	if !ok {
		return
	}
	content, _ := json.Marshal(data)
	s.lastSubmessage++
	m.Submessages = append(m.Submessages, Submessage{
		ID: s.lastSubmessage, SenderID: m.SenderID, MsgType: "widget", Content: string(content),
	})
}

// widgetData reads a widget command: its first line names the widget and its title or
// question, the following lines are the poll's options or the list's tasks.
func widgetData(content string) (map[string]any, bool) {
	first, rest, _ := strings.Cut(content, "\n")
	command, title, _ := strings.Cut(strings.TrimSpace(first), " ")
	var items []string
	for _, line := range strings.Split(rest, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			items = append(items, line)
		}
	}
	title = strings.TrimSpace(title)
	switch command {
	case "/poll":
		options := append([]string{}, items...)
		return map[string]any{"widget_type": "poll", "extra_data": map[string]any{"question": title, "options": options}}, true
	case "/todo":
		tasks := []map[string]string{}
		for _, item := range items {
			task, desc, _ := strings.Cut(item, ":")
			tasks = append(tasks, map[string]string{"task": strings.TrimSpace(task), "desc": strings.TrimSpace(desc)})
		}
		return map[string]any{"widget_type": "todo", "extra_data": map[string]any{"task_list_title": title, "tasks": tasks}}, true
	}
	return nil, false
}
