package pipeio

import (
	"io"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

func reader(f *os.File) io.Reader {
	if rc, ok := rawConn(f); ok {
		return rawReader{rc}
	}
	return f
}

func writer(f *os.File) io.Writer {
	if rc, ok := rawConn(f); ok {
		return rawWriter{rc}
	}
	return f
}

// rawConn returns f's raw connection if f is a pipe or socket in the
// runtime's poller (a deadline can be set on it only then). It must not
// call f.Fd, which puts the descriptor back in blocking mode.
func rawConn(f *os.File) (syscall.RawConn, bool) {
	if err := f.SetDeadline(time.Time{}); err != nil {
		return nil, false // not in the poller: a raw read could block a thread
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, false
	}
	stream := false
	if err := rc.Control(func(fd uintptr) { stream = isStream(int(fd)) }); err != nil || !stream {
		return nil, false
	}
	return rc, true
}

func isStream(fd int) bool {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return false
	}
	m := st.Mode & syscall.S_IFMT
	return m == syscall.S_IFIFO || m == syscall.S_IFSOCK
}

// rawReader reads with read(2) made as a raw system call; with nothing to
// read, the poller waits for the descriptor.
type rawReader struct{ rc syscall.RawConn }

func (r rawReader) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait in the poller
			}
			n, errno = int(m), e
			return true
		}
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, errno
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// rawWriter writes with write(2) made as a raw system call; with the pipe
// full, the poller waits for room.
type rawWriter struct{ rc syscall.RawConn }

func (w rawWriter) Write(b []byte) (int, error) {
	var n int
	var errno syscall.Errno
	err := w.rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
			switch e {
			case 0:
				n += int(m)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case errno != 0:
		return n, &os.PathError{Op: "write", Path: "pipe", Err: errno}
	case err != nil:
		return n, err
	}
	return n, nil
}

// Stdio returns the process's standard input and output for a program that
// talks over pipes, such as a UCI engine: when both are pipes or sockets
// they are put in non-blocking mode and read and written raw; otherwise
// (a terminal, a file) os.Stdin and os.Stdout. restore puts the
// descriptors back in blocking mode, for whoever shares them after the
// program ends (a shell's pipeline); call it before exiting.
func Stdio() (in io.Reader, out io.Writer, restore func()) {
	if !isStream(0) || !isStream(1) {
		return os.Stdin, os.Stdout, func() {}
	}
	if syscall.SetNonblock(0, true) != nil || syscall.SetNonblock(1, true) != nil {
		_ = syscall.SetNonblock(0, false)
		_ = syscall.SetNonblock(1, false)
		return os.Stdin, os.Stdout, func() {}
	}
	// New Files of the descriptors: os.NewFile puts a non-blocking
	// descriptor in the poller. They are never closed (that would close
	// fd 0 and 1) and stay reachable through the closures below, so no
	// finalizer closes them either.
	stdin, stdout := os.NewFile(0, "/dev/stdin"), os.NewFile(1, "/dev/stdout")
	restore = func() {
		_ = syscall.SetNonblock(0, false)
		_ = syscall.SetNonblock(1, false)
		runtime.KeepAlive(stdin)
		runtime.KeepAlive(stdout)
	}
	return Reader(stdin), Writer(stdout), restore
}
