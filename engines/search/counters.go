package search

// Counters make each variant's behaviour visible: what the search did, by
// kind of node and by selective rule. Nodes = MainNodes + QNodes.
type Counters struct {
	MainNodes          int64 // nodes of the full-width search
	QNodes             int64 // quiescence nodes
	HorizonNodes       int64 // the quiescence nodes entered from the full-width search (its depth ran out); the rest are deeper
	TTCutoffs          int64 // nodes answered by the transposition table
	NullTried          int64 // null-move searches
	NullFailHigh       int64 // null-move searches that failed high (value >= beta)
	FHRReductions      int64 // nodes reduced by fail-high reductions
	NMRReductions      int64 // depth reductions by extended null-move reductions
	VerifiedReductions int64 // verified null move: fail-highs that reduced instead of cutting
	VerifiedResearches int64 // verified null move: zugzwang re-searches at the original depth
	FutilityPrunes     int64 // moves skipped by the futility cutoff
	SEEPrunes          int64 // quiescence moves skipped because SEE says they lose material
	DeltaPrunes        int64 // quiescence captures skipped by delta pruning
	ExtCheck           int64 // check extensions
	ExtRecapture       int64 // recapture extensions
	ExtKingThreat      int64 // king-threat extensions
	ExtAttackEvading   int64 // attack-evading extensions
	ExtSingleReply     int64 // strictly-forced (single legal reply) extensions
	ExtMateThreat      int64 // mate-threat extensions
	ExtPassedPawn      int64 // passed-pawn (push to the 7th rank) extensions
	IIDSearches        int64 // internal iterative deepening searches
	AspirationFails    int64 // root searches outside the aspiration window, re-searched
	MultiCutTried      int64 // expected cut nodes that tried multi-cut
	MultiCutPrunes     int64 // nodes pruned by multi-cut
}

// Add accumulates o into c.
func (c *Counters) Add(o Counters) {
	c.MainNodes += o.MainNodes
	c.QNodes += o.QNodes
	c.HorizonNodes += o.HorizonNodes
	c.TTCutoffs += o.TTCutoffs
	c.NullTried += o.NullTried
	c.NullFailHigh += o.NullFailHigh
	c.FHRReductions += o.FHRReductions
	c.NMRReductions += o.NMRReductions
	c.VerifiedReductions += o.VerifiedReductions
	c.VerifiedResearches += o.VerifiedResearches
	c.FutilityPrunes += o.FutilityPrunes
	c.SEEPrunes += o.SEEPrunes
	c.DeltaPrunes += o.DeltaPrunes
	c.ExtCheck += o.ExtCheck
	c.ExtRecapture += o.ExtRecapture
	c.ExtKingThreat += o.ExtKingThreat
	c.ExtAttackEvading += o.ExtAttackEvading
	c.ExtSingleReply += o.ExtSingleReply
	c.ExtMateThreat += o.ExtMateThreat
	c.ExtPassedPawn += o.ExtPassedPawn
	c.IIDSearches += o.IIDSearches
	c.AspirationFails += o.AspirationFails
	c.MultiCutTried += o.MultiCutTried
	c.MultiCutPrunes += o.MultiCutPrunes
}

// Fields lists the counters as name/value pairs in a fixed order, for
// printing (selfplay search, bench) without reflection.
func (c *Counters) Fields() []CounterField {
	return []CounterField{
		{"main_nodes", c.MainNodes},
		{"q_nodes", c.QNodes},
		{"horizon_nodes", c.HorizonNodes},
		{"tt_cutoffs", c.TTCutoffs},
		{"null_tried", c.NullTried},
		{"null_fail_high", c.NullFailHigh},
		{"fhr_reductions", c.FHRReductions},
		{"nmr_reductions", c.NMRReductions},
		{"verified_reductions", c.VerifiedReductions},
		{"verified_researches", c.VerifiedResearches},
		{"futility_prunes", c.FutilityPrunes},
		{"see_prunes", c.SEEPrunes},
		{"delta_prunes", c.DeltaPrunes},
		{"ext_check", c.ExtCheck},
		{"ext_recapture", c.ExtRecapture},
		{"ext_king_threat", c.ExtKingThreat},
		{"ext_attack_evading", c.ExtAttackEvading},
		{"ext_single_reply", c.ExtSingleReply},
		{"ext_mate_threat", c.ExtMateThreat},
		{"ext_passed_pawn", c.ExtPassedPawn},
		{"iid_searches", c.IIDSearches},
		{"aspiration_fails", c.AspirationFails},
		{"multi_cut_tried", c.MultiCutTried},
		{"multi_cut_prunes", c.MultiCutPrunes},
	}
}

// CounterField is one named counter.
type CounterField struct {
	Name  string
	Value int64
}
