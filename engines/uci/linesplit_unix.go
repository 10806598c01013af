//go:build unix

package uci

import "bytes"

// lineSplitter cuts what is read from an engine's stdout into lines, with
// the rules of pipeio.ReadLine: a line's first maxLine bytes are kept, the
// rest is dropped and the line marked tooLong; the end of line (\n or
// \r\n) is dropped and the text sanitized. Its memory is bounded whatever
// the engine writes: the read buffer and at most maxLine bytes of a line
// that spans reads.
type lineSplitter struct {
	buf  [4096]byte
	r, w int    // buf[r:w] is read and not yet split
	part []byte // the kept bytes of a line begun in an earlier read
	size int    // the bytes of that line so far (kept or not)
	cr   bool   // its last byte so far is \r
}

// space returns the buffer to read into; call it only when empty.
func (s *lineSplitter) space() []byte {
	s.r, s.w = 0, 0
	return s.buf[:]
}

// filled records n bytes read into space's buffer.
func (s *lineSplitter) filled(n int) { s.w = n }

// empty says whether every byte read has been split.
func (s *lineSplitter) empty() bool { return s.r == s.w }

// next returns the next complete line read, if there is one; what is left
// of an incomplete one is kept for the next read.
func (s *lineSplitter) next() (line, bool) {
	rest := s.buf[s.r:s.w]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		s.keep(rest)
		s.r = s.w
		return line{}, false
	}
	frag := rest[:i]
	s.r += i + 1
	if s.size == 0 { // the whole line is in this read: no copy
		return makeLine(bytes.TrimSuffix(frag, []byte{'\r'}), false), true
	}
	cr := s.cr
	if len(frag) > 0 {
		cr = frag[len(frag)-1] == '\r'
	}
	s.keep(frag)
	size := s.size
	if cr {
		size--
	}
	l := makeLine(s.part[:min(size, len(s.part))], size > maxLine)
	s.reset()
	return l, true
}

// end returns what came after the last end of line at the end of the
// output, as pipeio.ReadLine does; ok is false when it is nothing.
func (s *lineSplitter) end() (line, bool) {
	s.keep(s.buf[s.r:s.w])
	s.r = s.w
	l := makeLine(s.part, s.size > maxLine)
	s.reset()
	return l, l.text != "" || l.tooLong
}

// keep adds frag to the line being read, up to maxLine bytes.
func (s *lineSplitter) keep(frag []byte) {
	if len(frag) == 0 {
		return
	}
	if room := maxLine - len(s.part); room > 0 {
		s.part = append(s.part, frag[:min(len(frag), room)]...)
	}
	s.size += len(frag)
	s.cr = frag[len(frag)-1] == '\r'
}

func (s *lineSplitter) reset() {
	s.part, s.size, s.cr = s.part[:0], 0, false
}
