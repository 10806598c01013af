package main

import (
	"testing"

	"example.com/mod/helper"
	l "example.com/mod/lib"
)

func TestApp(t *testing.T) {
	helper.Help()
	_ = l.OnlyOtherTest
}
