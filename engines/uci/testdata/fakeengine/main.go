// Command fakeengine is the fake UCI engine of package ucitest as a
// program, for the tests of package uci.
package main

import (
	"os"

	"selfplay/engines/uci/ucitest"
)

func main() { ucitest.Main(os.Args[1:]) }
