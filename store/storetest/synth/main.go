// Command synth writes a synthetic selfplay database (package storetest)
// for measuring the readers:
//
//	go run ./store/storetest/synth -games 100000 -o /tmp/synthetic-100k.db
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"selfplay/store/storetest"
)

func main() {
	games := flag.Int("games", 100000, "games")
	plies := flag.Int("plies", 100, "average engine moves per game")
	noMoves := flag.Bool("no-moves", false, "leave the moves table empty (faster; the report and export do not read it)")
	out := flag.String("o", "synthetic.db", "database file to create (must not exist)")
	flag.Parse()
	if _, err := os.Stat(*out); err == nil {
		fmt.Fprintf(os.Stderr, "synth: %s exists\n", *out)
		os.Exit(2)
	}
	start := time.Now()
	if err := storetest.Generate(context.Background(), *out, storetest.Options{Games: *games, Plies: *plies, NoMoves: *noMoves}); err != nil {
		fmt.Fprintf(os.Stderr, "synth: %v\n", err)
		os.Exit(1)
	}
	st, _ := os.Stat(*out)
	fmt.Printf("%s: %d games, %d MB, %v\n", *out, *games, st.Size()>>20, time.Since(start).Round(time.Millisecond))
}
