//go:build !linux

package pipeio

func isRaw(any) bool { return false }
