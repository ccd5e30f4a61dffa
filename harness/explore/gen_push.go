package explore

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Push registration (operation 7) follows a device's life: a client device registered first
// (POST /register_client_device), its initial registration with both groups of fields, then
// rotations of the key or of the token; and the user's legacy registrations of the same
// tokens (POST and DELETE /users/me/android_gcm_reg_id), which a registration of the token
// removes (rule 3): removing one afterwards tells whether it was still there.

type device struct {
	name, owner string
	registered  bool // an initial registration succeeded: the fields may now be rotated
}

// pushTokens are the run's provider tokens, named with the sequence's prefix ({name:t1}):
// no earlier sequence's registration of the target holds them.
var pushTokens = []string{"t1", "t2"}

const (
	// pushKey is a secret-box key: the byte 0x31 and 32 key bytes.
	pushKey         = "MQABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f"
	bouncerKey      = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	encryptedDevice = "AAECAwQFBgcICQ=="
)

// badPushKeys are one key byte more and less, another cryptosystem and bad Base64.
var badPushKeys = []string{"MQABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fIA==", "MQABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4=",
	"MgABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f", "not base64!"}

var humans = []string{"owner", "administrator", "moderator", "member", "guest"}

func (g *generator) registerDevice() Step {
	g.nextName++
	d := &device{name: "d" + strconv.Itoa(g.nextName), owner: pick(g, humans)}
	g.pending = func() { g.devices = append(g.devices, d) }
	return Step{Op: "register_device", Actor: d.owner, Method: "POST", Path: "/register_client_device", Learn: "device:" + d.name}
}

// pushFaults are the registrations the rules refuse or tell apart, drawn in turn in faulty
// steps: a key ID past 32 bits and negative, a bad key, an initial registration with one
// group of fields, another's device or none, a garbled token, one while the server has no
// push service (on a fake), and legacy registrations of both tokens before one is registered.
var pushFaults = []string{"push:key-id-over", "push:key-id-negative", "push:bad-key", "push:key-only-initial",
	"push:token-only-initial", "push:other-device", "push:garbled-token", "push:unconfigured", "push:legacy-pair"}

// registerPush registers a device of the run as its owner: first with both groups of fields,
// then rotating the key, the token or both; in faulty steps one of pushFaults.
func (g *generator) registerPush() Step {
	again := operation{"register_push", 0, (*generator).registerPush}
	if g.control && !g.pushSet {
		g.pushSet = true // a fake has no push service until configured: configure it first
		g.plan = append(g.plan, again)
		return g.setPushConfig()
	}
	form := g.pushForm
	g.pushForm = ""
	if form == "" && g.fault(35) {
		form = g.rotate(pushFaults...)
	}
	if len(g.devices) == 0 || g.chance(15) || form == "push:key-only-initial" || form == "push:token-only-initial" {
		st := g.registerDevice() // then register it
		made := g.pending
		g.pending = func() { made(); g.pushForm = cmp.Or(form, "push:fresh"); g.plan = append(g.plan, again) }
		return st
	}
	d := pick(g, g.devices)
	if form == "push:fresh" || strings.HasSuffix(form, "-initial") {
		d = g.devices[len(g.devices)-1] // the device just registered
	}
	switch form {
	case "push:unconfigured":
		if !g.control {
			break
		}
		g.pushForm = "push:any"
		g.plan = append(g.plan, again, operation{"set_push_config", 0, func(*generator) Step {
			return configStep("set_push_config", map[string]string{"push_configured": "true"})
		}})
		return configStep("set_push_config", map[string]string{"push_configured": "false"})
	case "push:legacy-pair":
		legacy := func(method, token string) operation {
			return operation{"legacy_push", 0, func(*generator) Step { return legacyStep(d.owner, method, token) }}
		}
		g.pushForm = "push:with-token"
		g.plan = append(g.plan, legacy("POST", pushTokens[1]), again, operation{"legacy_push", 0, func(g *generator) Step {
			return legacyStep(d.owner, "DELETE", pick(g, pushTokens)) // the token registered, or the other
		}})
		return legacyStep(d.owner, "POST", pushTokens[0])
	}
	keys, token := true, true
	switch {
	case form == "push:key-only-initial":
		token = false
	case form == "push:token-only-initial":
		keys = false
	case d.registered && form == "push:with-token":
		keys = g.chance(50)
	case d.registered && slices.Contains([]string{"push:key-id-over", "push:key-id-negative", "push:bad-key"}, form):
		token = g.chance(50) // a key's fault needs the key fields
	case d.registered:
		rotation := g.rotate("push:key", "push:token", "push:both")
		keys, token = rotation != "push:token", rotation != "push:key"
	}
	actor, id := d.owner, "{device:"+d.name+"}"
	params := map[string]string{"device_id": id}
	if keys {
		params["push_key"], params["push_key_id"] = pushKey, strconv.Itoa(1+g.rng.IntN(1000))
		if g.chance(10) {
			params["push_key_id"] = "4294967295" // the bound
		}
	}
	if token {
		params["token_kind"], params["token_id"] = pick(g, []string{"fcm", "fcm", "apns"}), "{tokenid:"+pick(g, pushTokens)+"}"
		params["bouncer_public_key"], params["encrypted_push_registration"] = bouncerKey, encryptedDevice
	}
	switch form {
	case "push:key-id-over":
		params["push_key_id"] = "4294967296"
	case "push:key-id-negative":
		params["push_key_id"] = "-1"
	case "push:bad-key":
		params["push_key"] = g.rotate(badPushKeys...)
	case "push:other-device":
		actor, params["device_id"] = g.actor(), pick(g, []string{id, "{device:none}"})
	case "push:garbled-token":
		params[pick(g, []string{"token_kind", "token_id"})] = "***"
	}
	if keys && actor == d.owner {
		g.pending = func() { d.registered = true }
	}
	if form == "" {
		// A second registration at once: a rotation, or (half the time, also in a clean
		// sequence: the faults are a third of the rules) one of the faults.
		if g.chance(50) {
			g.pushForm = g.rotate(pushFaults...)
		}
		g.plan = append(g.plan, again)
	}
	return Step{Actor: actor, Method: "POST", Path: "/mobile_push/register", Params: params}
}

// legacyPush adds or removes a legacy push registration of a run's token, mostly as the
// owner of a device.
func (g *generator) legacyPush() Step {
	actor := pick(g, humans)
	if len(g.devices) > 0 && g.chance(70) {
		actor = pick(g, g.devices).owner
	}
	return legacyStep(actor, pick(g, []string{"POST", "POST", "DELETE"}), pick(g, pushTokens))
}

func legacyStep(actor, method, token string) Step {
	return Step{Op: "legacy_push", Actor: actor, Method: method, Path: "/users/me/android_gcm_reg_id", Params: map[string]string{"token": "{name:" + token + "}"}}
}
