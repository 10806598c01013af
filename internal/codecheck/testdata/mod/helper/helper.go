// Package helper is imported by tests only.
package helper

// Help is used by app's test.
func Help() {}

// Unhelpful is used by nobody.
func Unhelpful() {}
