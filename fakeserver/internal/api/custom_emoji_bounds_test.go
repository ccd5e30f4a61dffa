package api_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// Custom emoji images are measured from their headers and decoded once, at upload: an image
// over the real server's pixel bound (width × height × frames) is refused, and the still
// image of an animated one is kept, not made again for every request.

// gifOf encodes frames, all of side×side pixels of one colour, on a logical screen of
// screenW×screenH pixels.
func gifOf(t *testing.T, screenW, screenH, side, frames int) []byte {
	t.Helper()
	palette := color.Palette{color.Black, color.White}
	g := &gif.GIF{Config: image.Config{ColorModel: palette, Width: screenW, Height: screenH}}
	frame := image.NewPaletted(image.Rect(0, 0, side, side), palette)
	for range frames {
		g.Image, g.Delay = append(g.Image, frame), append(g.Delay, 10)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// allocated is what the whole process allocated while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestCustomEmojiImageBound(t *testing.T) {
	hugePNG := func() []byte { // a PNG's header names its size: 10,000 × 10,000 pixels
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
			t.Fatal(err)
		}
		content := b.Bytes()
		copy(content[16:24], []byte{0, 0, 0x27, 0x10, 0, 0, 0x27, 0x10})
		binary.BigEndian.PutUint32(content[29:33], crc32.ChecksumIEEE(content[12:29])) // the header's checksum
		return content
	}
	base := newServer(t).URL
	for _, c := range []struct {
		name    string
		content []byte
		wantMsg string // "" for success
	}{
		{"a still GIF at the bound (9,000 × 10,000)", gifOf(t, 9000, 10_000, 1, 1), ""},
		{"a still GIF over it (10,000 × 10,000)", gifOf(t, 10_000, 10_000, 1, 1), "Image size exceeds limit."},
		{"an animated GIF at the bound (3,000 × 3,000 × 10 frames)", gifOf(t, 3000, 3000, 2, 10), ""},
		{"an animated GIF over it (3,000 × 3,000 × 11 frames)", gifOf(t, 3000, 3000, 2, 11), "Image size exceeds limit."},
		{"a PNG over it", hugePNG(), "Image size exceeds limit."},
		{"a GIF cut in its frames", gifOf(t, 4, 4, 2, 3)[:40], "Could not decode image; did you upload an image file?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := strings.NewReplacer(" ", "_", ",", "", "(", "", ")", "", "×", "x").Replace(strings.ToLower(c.name))
			res := uploadEmoji(t, base, memberAuth, name[:min(len(name), 40)], c.content)
			if c.wantMsg == "" {
				requireSuccess(t, "upload", res)
				return
			}
			if res.status != http.StatusBadRequest || res.env["code"] != "BAD_REQUEST" || res.env["msg"] != c.wantMsg {
				t.Errorf("got %s, want 400 BAD_REQUEST %q", res, c.wantMsg)
			}
		})
	}
}

func TestCustomEmojiImageDecodedOnce(t *testing.T) {
	const side, frames = 2000, 10 // 4 MB of pixels a frame
	content := gifOf(t, side, side, side, frames)
	base := newServer(t).URL
	var res response
	upload := allocated(func() { res = uploadEmoji(t, base, memberAuth, "big_dance", content) })
	requireSuccess(t, "upload", res)
	// The upload decodes the first frame, and no other.
	if limit := uint64(3 * side * side); upload > limit {
		t.Errorf("the upload allocated %d MB, want at most %d MB (the first frame's pixels, with room)", upload>>20, limit>>20)
	}
	const gets = 10
	var still response
	served := allocated(func() {
		for range gets {
			still = get(t, base, "", "/user_avatars/1/emoji/images/still/1.png", "")
		}
	})
	if still.status != http.StatusOK || still.header.Get("Content-Type") != "image/png" {
		t.Fatalf("the still image: %s", still)
	}
	if img, err := png.Decode(bytes.NewReader(still.body)); err != nil || img.Bounds().Dx() != 64 || img.Bounds().Dy() != 64 {
		t.Errorf("the still image is not a 64 × 64 PNG (%v)", err)
	}
	t.Logf("the upload allocated %d KB, each GET of the still image %d KB", upload>>10, served/gets>>10)
	// Serving it costs the request and a copy, not a frame's pixels.
	if perGet, limit := served/gets, uint64(256<<10); perGet > limit {
		t.Errorf("each GET of the still image allocated %d KB, want at most %d KB: it is decoded again", perGet>>10, limit>>10)
	}
}
