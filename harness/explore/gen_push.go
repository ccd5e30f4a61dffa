package explore

import "strconv"

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

// registerPush registers a device of the run, mostly as its owner: first with both groups of
// fields, then rotating one; now and then a bad key or key ID (past 32 bits, negative), a
// missing group, another's device or one that does not exist.
func (g *generator) registerPush() Step {
	again := operation{"register_push", 0, (*generator).registerPush}
	if g.control && !g.pushSet {
		g.pushSet = true // a fake has no push service until configured: configure it first
		g.plan = append(g.plan, again)
		return g.setPushConfig()
	}
	if len(g.devices) == 0 || g.chance(15) {
		st := g.registerDevice()
		made := g.pending
		g.pending = func() { made(); g.plan = append(g.plan, again) } // then register it
		return st
	}
	d := pick(g, g.devices)
	actor, id := d.owner, "{device:"+d.name+"}"
	if g.fault(10) {
		actor, id = g.actor(), pick(g, []string{id, "{device:none}"})
	}
	keys, token := true, true
	if d.registered || g.fault(20) {
		keys = g.chance(50)
		token = !keys || g.chance(30)
	}
	params := map[string]string{"device_id": id}
	if keys {
		params["push_key"], params["push_key_id"] = pushKey, strconv.Itoa(1+g.rng.IntN(1000))
		if g.fault(25) {
			params["push_key"] = g.rotate(badPushKeys...)
		}
		if g.chance(10) {
			params["push_key_id"] = "4294967295" // the bound
		} else if g.fault(15) {
			params["push_key_id"] = g.rotate("4294967296", "-1")
		}
	}
	if token {
		params["token_kind"], params["token_id"] = pick(g, []string{"fcm", "fcm", "apns"}), "{tokenid:"+pick(g, pushTokens)+"}"
		params["bouncer_public_key"], params["encrypted_push_registration"] = bouncerKey, encryptedDevice
		if g.fault(10) {
			params[pick(g, []string{"token_kind", "token_id"})] = "***"
		}
	}
	if keys && actor == d.owner {
		g.pending = func() { d.registered = true }
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
	method := pick(g, []string{"POST", "POST", "DELETE"})
	return Step{Actor: actor, Method: method, Path: "/users/me/android_gcm_reg_id", Params: map[string]string{"token": "{name:" + pick(g, pushTokens) + "}"}}
}
