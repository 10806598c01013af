package stats

import "fmt"

// Trinomial counts the games of a match from the first engine's point of
// view.
type Trinomial struct {
	Wins, Losses, Draws int
}

// Games is the number of games counted.
func (t Trinomial) Games() int { return t.Wins + t.Losses + t.Draws }

// Points is the first engine's total score, draws counting one half.
func (t Trinomial) Points() float64 { return float64(t.Wins) + float64(t.Draws)/2 }

// Swapped is the same match seen from the second engine.
func (t Trinomial) Swapped() Trinomial {
	return Trinomial{Wins: t.Losses, Losses: t.Wins, Draws: t.Draws}
}

// maxResultGames bounds the games of a result: up to it every count and sum is
// an exact integer, also as a float64 (2^53), and no sum overflows.
const maxResultGames = 1 << 53

// Validate reports negative counts and results of more than maxResultGames games.
func (t Trinomial) Validate() error {
	if t.Wins < 0 || t.Losses < 0 || t.Draws < 0 {
		return fmt.Errorf("negative count in W/L/D %d/%d/%d", t.Wins, t.Losses, t.Draws)
	}
	if !sumAtMost([]int{t.Wins, t.Losses, t.Draws}, maxResultGames) {
		return fmt.Errorf("W/L/D %d/%d/%d add up to more than %d games", t.Wins, t.Losses, t.Draws, int64(maxResultGames))
	}
	return nil
}

// sumAtMost reports whether the non-negative counts add up to at most max,
// without overflowing.
func sumAtMost(counts []int, limit int) bool {
	sum := 0
	for _, c := range counts {
		if c > limit-sum {
			return false
		}
		sum += c
	}
	return true
}

// Add counts one game in which the first engine scored 1, 0.5 or 0.
func (t *Trinomial) Add(score float64) error {
	switch score {
	case 1:
		t.Wins++
	case 0.5:
		t.Draws++
	case 0:
		t.Losses++
	default:
		return fmt.Errorf("game score %v is not 0, 0.5 or 1", score)
	}
	return nil
}

// bins returns the counts and the per-game score of each bin, loss first,
// as fishtest orders trinomial results (LLRcalc.py: L, D, W).
func (t Trinomial) bins() ([]float64, []float64) {
	return []float64{float64(t.Losses), float64(t.Draws), float64(t.Wins)},
		[]float64{0, 0.5, 1}
}

// Pentanomial counts game pairs, two games from the same opening with
// colours reversed, by the first engine's pair score: LL scores 0, LD 0.5,
// DD 1 (a drawn-drawn pair or a win and a loss), WD 1.5 and WW 2. This is
// fishtest's and fastchess's Ptnml(0-2) order.
type Pentanomial struct {
	LL, LD, DD, WD, WW int
}

// Pairs is the number of game pairs counted.
func (p Pentanomial) Pairs() int { return p.LL + p.LD + p.DD + p.WD + p.WW }

// Games is twice the number of pairs.
func (p Pentanomial) Games() int { return 2 * p.Pairs() }

// Points is the first engine's total score over all games.
func (p Pentanomial) Points() float64 {
	return 0.5*float64(p.LD) + float64(p.DD) + 1.5*float64(p.WD) + 2*float64(p.WW)
}

// Counts returns the five counts in Ptnml(0-2) order.
func (p Pentanomial) Counts() [5]int { return [5]int{p.LL, p.LD, p.DD, p.WD, p.WW} }

// PentanomialFromCounts builds a Pentanomial from counts in Ptnml(0-2) order.
func PentanomialFromCounts(c [5]int) Pentanomial {
	return Pentanomial{LL: c[0], LD: c[1], DD: c[2], WD: c[3], WW: c[4]}
}

// Swapped is the same pairs seen from the second engine.
func (p Pentanomial) Swapped() Pentanomial {
	return Pentanomial{LL: p.WW, LD: p.WD, DD: p.DD, WD: p.LD, WW: p.LL}
}

// Validate reports negative counts and results of more than maxResultGames games
// (maxResultGames/2 pairs).
func (p Pentanomial) Validate() error {
	c := p.Counts()
	for _, n := range c {
		if n < 0 {
			return fmt.Errorf("negative count in pentanomial %v", c)
		}
	}
	if !sumAtMost(c[:], maxResultGames/2) {
		return fmt.Errorf("pentanomial %v adds up to more than %d pairs (%d games)", c, int64(maxResultGames/2), int64(maxResultGames))
	}
	return nil
}

// AddPair counts one game pair given the first engine's score (1, 0.5 or 0)
// in each of its two games.
func (p *Pentanomial) AddPair(first, second float64) error {
	for _, s := range [2]float64{first, second} {
		if s != 0 && s != 0.5 && s != 1 {
			return fmt.Errorf("game score %v is not 0, 0.5 or 1", s)
		}
	}
	switch first + second {
	case 0:
		p.LL++
	case 0.5:
		p.LD++
	case 1:
		p.DD++
	case 1.5:
		p.WD++
	default:
		p.WW++
	}
	return nil
}

// bins returns the counts and the per-game score of each bin (pair score
// divided by two), LL first, as fishtest's results_to_pdf scales them.
func (p Pentanomial) bins() ([]float64, []float64) {
	c := p.Counts()
	counts := make([]float64, len(c))
	for i, n := range c {
		counts[i] = float64(n)
	}
	return counts, []float64{0, 0.25, 0.5, 0.75, 1}
}
