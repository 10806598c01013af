package pipeio

import "bufio"

// ReadLine reads one line from r in bounded memory: it returns the line's
// first max bytes without the end of line (\n or \r\n), in buf's storage
// (pass the returned slice back in to reuse it), and long = true when the
// line was longer than that (the rest is read and dropped). At the end of
// the input err is r's error (io.EOF) and text what came after the last
// end of line.
func ReadLine(r *bufio.Reader, max int, buf []byte) (text []byte, long bool, err error) {
	buf = buf[:0]
	n := 0        // bytes of the line, end of line included
	var last byte // the last byte of the previous fragment
	for {
		frag, err := r.ReadSlice('\n')
		if room := max - len(buf); room > 0 {
			buf = append(buf, frag[:min(len(frag), room)]...)
		}
		n += len(frag)
		if err == bufio.ErrBufferFull {
			last = frag[len(frag)-1]
			continue
		}
		size := n // of the text, without the end of line
		if err == nil {
			size-- // the \n
			if k := len(frag); (k >= 2 && frag[k-2] == '\r') || (k == 1 && last == '\r') {
				size--
			}
		}
		return buf[:min(size, len(buf))], size > max, err
	}
}
