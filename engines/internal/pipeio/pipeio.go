// Package pipeio reads and writes the pipes between a tournament runner and
// its UCI engines at a low cost in CPU time.
//
// Why: a Go program that blocks in read(2) or write(2) through the os
// package wakes the runtime's system monitor (sysmon) from its deep sleep,
// and a woken sysmon polls every 20 microseconds for a millisecond before it
// backs off. A UCI engine idles between commands and then reads or writes a
// line, so every command restarts that polling: measured on 2 cores, a
// 50-game match between `selfplay uci` processes made 226,000 context
// switches where the same match in one process made 1,500, and cost 1.77x
// its CPU. Reads and writes made with raw system calls on a descriptor in
// the runtime's poller do not wake sysmon; a goroutine that finds nothing
// to read (or no room to write) parks in the poller as usual.
//
// The raw path is taken on Linux for pipes and sockets in non-blocking mode
// (os.Pipe, os/exec's pipes, and descriptors passed through Stdio); any
// other file is used as it is.
//
// ReadLine reads lines in bounded memory, whatever the other side writes.
package pipeio

import (
	"io"
	"os"
)

// Reader returns a reader of f: raw reads where possible, else f.
// Deadlines set on f (SetReadDeadline) apply to it; making it clears those
// already set, so make it before any deadline is set.
func Reader(f *os.File) io.Reader { return reader(f) }

// Writer returns a writer to f: raw writes where possible, else f.
// Deadlines set on f (SetWriteDeadline) apply to it; making it clears those
// already set, as Reader does.
func Writer(f *os.File) io.Writer { return writer(f) }
