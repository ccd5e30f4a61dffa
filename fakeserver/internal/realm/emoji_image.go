package realm

import (
	"bytes"
	"errors"
	"image"
	"image/gif"
	_ "image/jpeg" // decoders of the emoji images the fake takes
	"image/png"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// The custom emoji image checks, made once at upload and outside the realm's lock: an image
// is measured from its headers before any pixel is decoded, refused over the real server's
// bound, and an animated one's still image is made then and kept, so that serving it costs a
// copy and no decoding.

// MaxEmojiPixels is the real server's IMAGE_BOMB_TOTAL_PIXELS: an emoji image may have at most
// this many pixels, its width times its height times its frames.
const MaxEmojiPixels = 90_000_000

// emojiStillSize is the side of an animated emoji's still image, the real server's
// DEFAULT_EMOJI_SIZE: its first frame, cropped to the centre square and scaled.
const emojiStillSize = 64

var (
	errImageTooLarge = apierr.BadRequest("Image size exceeds limit.")
	errNotAnImage    = apierr.BadRequest("Could not decode image; did you upload an image file?")
)

// emojiImage is an uploaded image, checked.
type emojiImage struct {
	format string // "gif", "jpeg" or "png"
	still  []byte // for an animated image, its still image as PNG
}

// decoding admits one still image's decoding at a time: a first frame may hold tens of
// megapixels, and uploads side by side would each hold one.
var decoding = make(chan struct{}, 1)

// checkEmojiImage measures content from its headers, refuses it over MaxEmojiPixels, and
// makes an animated GIF's still image. It holds no lock.
func checkEmojiImage(content []byte) (emojiImage, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(content))
	if err != nil {
		return emojiImage{}, errNotAnImage
	}
	frames := 1
	if format == "gif" {
		if frames, err = gifFrames(content); err != nil {
			return emojiImage{}, errNotAnImage
		}
	}
	if int64(cfg.Width)*int64(cfg.Height)*int64(frames) > MaxEmojiPixels {
		return emojiImage{}, errImageTooLarge
	}
	img := emojiImage{format: format}
	if frames > 1 {
		decoding <- struct{}{}
		first, err := gif.Decode(bytes.NewReader(content)) // the first frame alone
		<-decoding
		if err != nil {
			return emojiImage{}, errNotAnImage
		}
		img.still = stillImage(first)
	}
	return img, nil
}

// stillImage is the centre square of frame scaled to emojiStillSize, as PNG.
func stillImage(frame image.Image) []byte {
	b := frame.Bounds()
	side := min(b.Dx(), b.Dy())
	corner := b.Min.Add(image.Pt((b.Dx()-side)/2, (b.Dy()-side)/2))
	out := image.NewNRGBA(image.Rect(0, 0, emojiStillSize, emojiStillSize))
	for y := range emojiStillSize {
		for x := range emojiStillSize {
			out.Set(x, y, frame.At(corner.X+x*side/emojiStillSize, corner.Y+y*side/emojiStillSize))
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, out) // writing to memory does not fail
	return buf.Bytes()
}

var errGIFLayout = errors.New("gif: malformed block")

// gifFrames counts the frames of a GIF by walking its blocks, without decoding any: the
// header and logical screen, an optional global colour table, then extensions and image
// descriptors (each with its colour table and data sub-blocks) up to the trailer.
func gifFrames(content []byte) (int, error) {
	const header, screen = 6, 7
	at := header + screen
	if len(content) < at {
		return 0, errGIFLayout
	}
	at += colourTable(content[header+4])
	frames := 0
	for at < len(content) {
		kind := content[at]
		at++
		switch kind {
		case 0x3B: // trailer
			return max(frames, 1), nil
		case 0x21: // extension: a label, then sub-blocks
			at++
		case 0x2C: // image descriptor: position, size, flags; a colour table; the LZW code size
			if at+9 > len(content) {
				return 0, errGIFLayout
			}
			at += 9 + colourTable(content[at+8]) + 1
			frames++
		default:
			return 0, errGIFLayout
		}
		var ok bool
		if at, ok = skipSubBlocks(content, at); !ok {
			return 0, errGIFLayout
		}
	}
	return max(frames, 1), nil // no trailer: the frames that came, as decoders read them
}

// colourTable is the size of the colour table a GIF flags byte announces.
func colourTable(flags byte) int {
	if flags&0x80 == 0 {
		return 0
	}
	return 3 << (flags&7 + 1)
}

// skipSubBlocks skips data sub-blocks (a length byte and that many bytes) up to the empty one.
func skipSubBlocks(content []byte, at int) (int, bool) {
	for at < len(content) {
		n := int(content[at])
		at++
		if n == 0 {
			return at, true
		}
		at += n
	}
	return at, false
}
