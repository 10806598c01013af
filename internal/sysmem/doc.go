// Package sysmem tells the machine's physical memory, the bound of a
// transposition table that can be allocated without swapping or dying (a
// config's hash, a UCI client's setoption Hash).
package sysmem
