package pipeio

// isRaw reports whether a reader or writer does raw system calls.
func isRaw(v any) bool {
	switch v.(type) {
	case rawReader, rawWriter:
		return true
	}
	return false
}
