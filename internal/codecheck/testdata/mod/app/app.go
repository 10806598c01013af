package main

import "example.com/mod/lib"

// Exported in package main: not counted.
func Exported() int { lib.Open(); return lib.Used() }

func main() { Exported() }
