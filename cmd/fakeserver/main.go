// Command fakeserver runs the chatconform reference fake server.
//
//	go run ./cmd/fakeserver                 # 127.0.0.1:9991, embedded default fixture
//	go run ./cmd/fakeserver -addr :8080 -fixture my-realm.yaml
//
// It prints its URL and the credentials of the fixture's users, then serves until interrupted.
// `chatconform serve` is the same command inside the runner's binary.
package main

import (
	"os"

	"github.com/chatconform/chatconform/fakeserver/serve"
)

func main() { os.Exit(serve.Main("fakeserver", os.Args[1:])) }
