//go:build windows

package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// windowColumns asks the console for its window's width.
func windowColumns(f *os.File) (int, bool) {
	var info windows.ConsoleScreenBufferInfo
	if err := windows.GetConsoleScreenBufferInfo(windows.Handle(f.Fd()), &info); err != nil {
		return 0, false
	}
	return int(info.Window.Right-info.Window.Left) + 1, true
}
