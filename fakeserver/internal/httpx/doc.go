// Package httpx is the fake's HTTP plumbing that needs nothing of the Server: the sliding-window
// rate limiter and the reply buffer that lets a handler's locks go before a slow client reads.
// The stages that read the Server's configuration, realm or journal stay in the fakeserver
// package (pipeline*.go).
package httpx
