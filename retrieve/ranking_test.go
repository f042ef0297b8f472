package retrieve_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// threeNotes is the folder of the first regression: a vacation policy that
// answers the question in one chunk, and an incident report whose many
// chunks each share a weak word or two with it.
var threeNotes = []note{
	{"vacation.md", "Vacation policy", "# Vacation policy\n\n" +
		"## Allowance\n\nEvery employee receives 25 vacation days a year, and 30 after five years of service.\n\n" +
		"## Requests\n\nRequests go to your manager at least two weeks ahead. Unused allowance carries over until March.\n"},
	{"incident.md", "Incident report: checkout outage", "# Incident report: checkout outage\n\n" +
		"## Summary\n\nCheckout failed for many customers over two days in May. How many orders were lost is still being counted.\n\n" +
		"## Timeline\n\nOn the first of the two days the error rate rose slowly. Many alerts fired; how many were read is unclear.\n\n" +
		"## Impact\n\nFor two days, many customers saw errors. Support answered how many refunds were due within days.\n\n" +
		"## Root cause\n\nA certificate expired. It had been valid for 90 days and nobody renewed it.\n\n" +
		"## Follow-up\n\nRenewals are now automated days before expiry. We will review how many other certificates are at risk.\n"},
	{"lunch.md", "Team lunch", "# Team lunch\n\nThe team lunch is on Friday at noon in the big meeting room. Bring a dish to share.\n"},
}

// TestRankingRegressionVacation is the first regression of issue 26: on a
// folder of three notes, "How many vacation days?" put the incident report
// first, its segment's value summed from several weak hits, above the
// vacation policy that held the best hit.
func TestRankingRegressionVacation(t *testing.T) {
	ps, ws := segmentsBothWays(t, "How many vacation days?", threeNotes)
	require.Equal(t, "vacation.md", ps[0].DocID)
	require.Contains(t, ps[0].Text, "25 vacation days")
	require.Equal(t, "Vacation policy", ps[0].Title)
	require.Equal(t, []string{"Vacation policy", "Allowance"}, ps[0].Section)

	// The case reproduces: ordered by value, the segments put the
	// incident report first, with its hits all weaker than the best.
	require.Equal(t, "incident.md", ws[0].DocID, "the segments by value: %v", windowDocs(ws))
	require.Greater(t, ws[0].Value, valueOf(ws, "vacation.md"))
	require.Less(t, ws[0].Score, ps[0].Score)
}

// segmentsBothWays returns the passages of a Retriever with relevant
// segments over a folder of notes, and the segments the Extractor makes
// of the same hits, in its order (by value).
func segmentsBothWays(t *testing.T, question string, notes []note) ([]retrieve.Passage, []window.Window) {
	t.Helper()
	store, emb := folder(t, 40, notes...)
	x, err := window.NewExtractor(window.ExtractorConfig{Source: store})
	require.NoError(t, err)
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Widener: x})
	require.NoError(t, err)
	ps, err := r.Retrieve(bg, question)
	require.NoError(t, err)
	require.NotEmpty(t, ps)
	logPassages(t, ps)
	ws, err := x.Widen(bg, store, fusedHits(t, r, store, emb, question))
	require.NoError(t, err)
	return ps, ws
}

func logPassages(t *testing.T, ps []retrieve.Passage) {
	t.Helper()
	for i, p := range ps {
		t.Logf("%d. %s %d-%d score %.4f hits %d %q", i+1, p.DocID, p.First, p.Last, p.Score, len(p.Hits), p.Section)
	}
}

// fusedHits returns the hits a Retriever configured as r widens: the
// fusion of the store's vector and keyword searches at r's depth.
func fusedHits(t *testing.T, r *retrieve.Retriever, store *memory.Store, emb vectorstore.Embedder, question string) []vectorstore.Hit {
	t.Helper()
	cfg := r.Config()
	vec, err := emb.Embed(bg, []string{question})
	require.NoError(t, err)
	vh, kh, err := store.QueryHybrid(bg, vec[0], question, cfg.Depth, cfg.Filter)
	require.NoError(t, err)
	hits, err := retrieve.Fuse(cfg.Fusion, vh, kh)
	require.NoError(t, err)
	return hits[:min(len(hits), cfg.Depth)]
}

func valueOf(ws []window.Window, docID string) float64 {
	for _, w := range ws {
		if w.DocID == docID {
			return w.Value
		}
	}
	return 0
}

// twelveNotes is the folder of the second regression: an engineering
// handbook whose code review section answers the question, among eleven
// other notes, two of them long and full of reviews of other kinds.
var twelveNotes = []note{
	{"handbook.md", "Engineering handbook", "# Engineering handbook\n\n" +
		"## Branches\n\nWork happens on short-lived branches named after their ticket.\n\n" +
		"## Code review\n\nBefore merging, an owner of the code a pull request changes has to approve its code review.\n\n" +
		"## Deploys\n\nDeploys run from the main branch twice a day.\n"},
	{"postmortem.md", "Postmortem process", "# Postmortem process\n\n" +
		"## Review meeting\n\nThe review meeting is held within a week. The review covers the timeline, and every review ends with actions.\n\n" +
		"## Who attends\n\nThe on-call engineer, the owner of the service and a facilitator attend the review.\n\n" +
		"## Review notes\n\nNotes of the review are shared with the whole company. A second review checks the actions a month later.\n\n" +
		"## Change requests\n\nActions that change code go through the usual process; the review lists them.\n"},
	{"performance.md", "Performance reviews", "# Performance reviews\n\n" +
		"## Cycle\n\nPerformance reviews happen twice a year. Each review has a self review and a manager review.\n\n" +
		"## Peers\n\nPeers write a short review of each other's work. Your manager must approve the peers you choose.\n\n" +
		"## Calibration\n\nManagers review the results together before the reviews are shared.\n"},
	{"oncall.md", "On-call", "# On-call\n\nThe on-call rotation is weekly. Pages are answered within fifteen minutes.\n"},
	{"security.md", "Security", "# Security\n\nSecrets live in the vault. Laptops are encrypted and locked after five minutes.\n"},
	{"travel.md", "Travel", "# Travel\n\nBook trains for trips under four hours. Hotels are booked through the travel desk.\n"},
	{"hiring.md", "Hiring", "# Hiring\n\nEvery candidate meets four interviewers. The hiring manager makes the offer.\n"},
	{"office.md", "Office", "# Office\n\nThe office opens at eight. Visitors sign in at the front desk.\n"},
	{"expenses.md", "Expenses", "# Expenses\n\nClaims are submitted within thirty days with a receipt.\n"},
	{"release.md", "Release notes 4.2", "# Release notes 4.2\n\nFaster search, a new export button and fixes to the editor.\n"},
	{"style.md", "Writing style", "# Writing style\n\nWrite short sentences. Prefer the active voice and plain words.\n"},
	{"benefits.md", "Benefits", "# Benefits\n\nHealth insurance covers your family. The pension plan matches five percent.\n"},
}

// TestRankingRegressionCodeReview is the second regression of issue 26: on
// a folder of twelve documents, a code-review question put a document of
// many weaker hits above the one that held the best hit.
func TestRankingRegressionCodeReview(t *testing.T) {
	ps, ws := segmentsBothWays(t, "Who has to approve a code review before merging?", twelveNotes)
	require.Equal(t, "handbook.md", ps[0].DocID)
	require.Contains(t, ps[0].Text, "has to approve its code review")
	require.NotEqual(t, "handbook.md", ws[0].DocID, "the segments by value: %v", windowDocs(ws))
	require.Greater(t, ws[0].Value, valueOf(ws, "handbook.md"))
}
