package realm

import "testing"

// APNs tokens are hex bytes on the real server; whitespace may separate bytes, not digits.
func TestAPNsTokenIsHex(t *testing.T) {
	for token, want := range map[string]bool{
		"4e65772041504e73":       true,
		"4E 65 77\t20":           true,
		"":                       true, // refused before, as empty
		"4e657":                  false,
		"4e 6":                   false,
		"4 e65":                  false,
		"bmV3LWFwbnMtdG9rZW4=":   false,
		"c2V0dXAtYXBucy10b2tlbg": false,
		"0x4e65":                 false,
	} {
		if got := isHexBytes(token); got != want {
			t.Errorf("isHexBytes(%q) = %v, want %v", token, got, want)
		}
	}
	if err := checkLegacyToken("apns", "4e 65 77"); err != nil {
		t.Errorf("a spaced hex token refused: %v", err)
	}
	if err := checkLegacyToken("fcm", "not-hex"); err != nil {
		t.Errorf("an FCM token is not hex and need not be: %v", err)
	}
}
