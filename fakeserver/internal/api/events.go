package api

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// registerQueue makes a user's event queue. As on the real server, a queue that names
// user_topic gets no muted_topics events, which carry the same, where the level has
// user_topic: a client names both to get muted_topics only from servers too old for it.
func (s *Service) registerQueue(userID int, eventTypes []string, client events.Client) (string, int) {
	if slices.Contains(eventTypes, "user_topic") && s.realm().AtLeast(realm.LevelUserTopicState) {
		eventTypes = slices.DeleteFunc(slices.Clone(eventTypes), func(t string) bool { return t == "muted_topics" })
	}
	return s.hub.Register(events.QueueSpec{UserID: userID, Holder: s.realm().Holder(userID), EventTypes: eventTypes, Client: client})
}

// getEvents: GET /events — long-polls an event queue registered with POST /register.
//
// As on the real server, queue_id may be left out only with dont_block=true, which makes a
// new queue (of the given event_types and client options) and returns its id; with a
// queue_id, last_event_id is required, and acknowledges (drops) the events up to it. A blocking fetch waits for an
// event, for the client to go away (the request's context) or for the poll timeout, which
// answers with a heartbeat event.
func (s *Service) getEvents(c *handler.Call) (handler.Fields, error) {
	queueID, hasQueue := c.P.String("queue_id")
	lastEventID, hasLast := c.P.Int("last_event_id")
	dontBlock := c.P.Bool("dont_block", false)
	eventTypes := queueList(c, "event_types")
	client := s.clientOptions(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	if !hasQueue {
		if !dontBlock {
			return nil, apierr.BadRequest("Missing 'queue_id' argument")
		}
		if err := s.checkClientOptions(c, client); err != nil {
			return nil, err
		}
		// queue_id is in the answer only here, where the request made the queue.
		id, _ := s.registerQueue(c.User.ID, eventTypes, client)
		return handler.Fields{"events": []events.Event{}, "queue_id": id}, nil
	}
	if !hasLast {
		return nil, apierr.BadRequest("Missing 'last_event_id' argument")
	}
	evs, err := s.hub.Get(c.R.Context(), c.User.ID, queueID, int(lastEventID), dontBlock)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"events": evs}, nil
}

// deleteEvents: DELETE /events — deletes an event queue.
func (s *Service) deleteEvents(c *handler.Call) (handler.Fields, error) {
	queueID := c.P.RequiredString("queue_id")
	if err := c.Done(); err != nil {
		return nil, err
	}
	if err := s.hub.Delete(c.User.ID, queueID); err != nil {
		return nil, err
	}
	return handler.Fields{}, nil
}
