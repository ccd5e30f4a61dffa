package fakeserver

import (
	"fmt"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/go-chi/chi/v5"
)

// Router exposes the chi router to the external tests, which walk it so that every route
// the fake serves must have bad-input cases.
func (s *Server) Router() chi.Routes { return pipeline.Routes() }

// SeedChannelMessages stores n messages of size bytes in the channel named channel, spread
// over the given number of topics, straight through the domain layer: benchmarks need realms
// of a million messages, which would take minutes through HTTP. Each message has content and
// a topic string of its own, as messages sent over HTTP have.
func (s *Server) SeedChannelMessages(senderID int, channel string, n, topics, size int) {
	filler := strings.Repeat("x", size)
	for i := range n {
		number := fmt.Sprintf("message %d ", i)
		content := number + filler[:max(0, size-len(number))]
		d := realm.Draft{Channel: channel, Topic: fmt.Sprintf("topic %d", i%topics), TopicGiven: true, Content: content, Client: "bench"}
		if _, err := s.state.Send(senderID, d); err != nil {
			panic(err)
		}
	}
}

// SeedTopic stores n messages of size bytes in one topic of the channel named channel, as
// SeedChannelMessages does, and returns the first one's id.
func (s *Server) SeedTopic(senderID int, channel, topic string, n, size int) int {
	first := 0
	for i := range n {
		content := fmt.Sprintf("message %d %s", i, strings.Repeat("x", size))[:size]
		id, err := s.state.Send(senderID, realm.Draft{Channel: channel, Topic: topic, TopicGiven: true, Content: content, Client: "bench"})
		if err != nil {
			panic(err)
		}
		if first == 0 {
			first = id
		}
	}
	return first
}

// ServedAtLevel tells the external tests whether a route the router holds is served at the
// fake's feature level (gated routes are unknown outside their levels).
func (s *Server) ServedAtLevel(method, pattern string) bool {
	return s.api.ServedAtLevel(method, pattern)
}
