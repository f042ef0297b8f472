//go:build ignore

// gen writes the "neardup" corpus of the retrieval evaluation: a question
// set on which near-copies of one document crowd out a second relevant
// one, to measure maximal marginal relevance and the per-document cap of
// retrieve.Diversity. Run it from this directory:
//
//	go run gen.go
//
// Each of five topics has a policy in six yearly versions (2020 to
// 2025), near-copies that differ only in their year and figures, and one
// short guidance note on the same subject from another team. Two
// questions per topic are answered only by the guidance note, in the
// policy's own words, so that a search ranks the four versions of the
// policy first; one question per topic asks for a figure of one version
// by its year, which diversity must not lose. The texts are written for
// this evaluation; every answer occurs once in the corpus, as
// eval.NewCorpus requires.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type topic struct {
	id, title string
	policy    string // with %[1]d the year and %[2]d, %[3]d figures
	figs      func(v int) (int, int)
	note      struct{ id, text string }
	noteQs    [2][2]string // question, answer (in the note)
	versionQ  [2]string    // question with %d the year, answer with %[2]d %[3]d figures
}

func main() {
	topics := []topic{
		{id: "travel", title: "Travel policy",
			policy: "# Travel policy %[1]d\n\n## Booking\n\nBusiness travel is booked through the travel desk at least a week ahead. Trains are preferred for trips under four hours.\n\n## Taxis\n\nTaxis on business travel are expensed with a receipt, up to %[2]d euros a ride, tips included.\n\n## Hotels\n\nHotels on business travel may cost up to %[3]d euros a night, breakfast included.\n",
			figs:   func(v int) (int, int) { return 40 + 5*v, 150 + 10*v }},
		{id: "security", title: "Security policy",
			policy: "# Security policy %[1]d\n\n## Laptops\n\nCompany laptops are encrypted and lock after %[2]d minutes without use.\n\n## Passwords\n\nPasswords are at least %[3]d characters long and kept in the company password manager.\n\n## Incidents\n\nA lost laptop or a leaked password is reported to the security team at once.\n",
			figs:   func(v int) (int, int) { return 5 + v, 12 + 2*v }},
		{id: "leave", title: "Leave policy",
			policy: "# Leave policy %[1]d\n\n## Vacation\n\nEmployees have %[2]d vacation days a year, booked in the HR portal.\n\n## Sick leave\n\nSick leave of more than %[3]d days in a row needs a doctor's note.\n\n## Carry-over\n\nUnused vacation days carry over to the next year until the end of March.\n",
			figs:   func(v int) (int, int) { return 25 + v, 3 + v }},
		{id: "equipment", title: "Equipment policy",
			policy: "# Equipment policy %[1]d\n\n## Monitors\n\nEach employee may order a monitor of up to %[2]d inches for the office desk.\n\n## Home office\n\nHome office equipment is reimbursed up to %[3]d euros a year with a receipt.\n\n## Returns\n\nEquipment is returned to the office when an employee leaves.\n",
			figs:   func(v int) (int, int) { return 24 + 2*v, 300 + 50*v }},
		{id: "expenses", title: "Expense policy",
			policy: "# Expense policy %[1]d\n\n## Meals\n\nMeals with customers are expensed up to %[2]d euros a person.\n\n## Claims\n\nExpense claims are submitted within %[3]d days, each with its receipt, in the finance portal.\n\n## Approval\n\nA manager approves every expense claim before finance pays it.\n",
			figs:   func(v int) (int, int) { return 50 + 10*v, 30 + 15*v }},
	}
	topics[0].note.id, topics[0].note.text = "ride-hailing", "# Ride-hailing on business travel\n\nFrom the finance team.\n\nUber and other ride-hailing apps count as taxis: a ride is reimbursed at the economy tier only, never a premium car.\n\nShared rides with colleagues are claimed once, by the person who paid.\n"
	topics[0].noteQs = [2][2]string{
		{"Can I expense Uber rides on business travel, and at which tier?", "a ride is reimbursed at the economy tier only, never a premium car"},
		{"Who claims a shared taxi ride with colleagues on business travel?", "Shared rides with colleagues are claimed once, by the person who paid."}}
	topics[0].versionQ = [2]string{"Up to how many euros a taxi ride are expensed under the travel policy of %d?", "up to %[2]d euros a ride, tips included"}
	topics[1].note.id, topics[1].note.text = "phones", "# Phones and tablets\n\nFrom the IT team.\n\nPhones and tablets with company mail must use a screen lock with a six-digit code or a fingerprint.\n\nA lost phone is wiped remotely by the IT desk within the hour.\n"
	topics[1].noteQs = [2][2]string{
		{"What screen lock must phones with company mail use, under security rules for devices?", "must use a screen lock with a six-digit code or a fingerprint"},
		{"What happens to a lost phone, security-wise, once it is reported?", "A lost phone is wiped remotely by the IT desk within the hour."}}
	topics[1].versionQ = [2]string{"After how many minutes do company laptops lock under the security policy of %d?", "lock after %[2]d minutes without use"}
	topics[2].note.id, topics[2].note.text = "parental", "# Parental leave\n\nFrom HR.\n\nParents take up to sixteen weeks of paid parental leave in the first year after a birth or adoption.\n\nParental leave is requested in the HR portal two months ahead.\n"
	topics[2].noteQs = [2][2]string{
		{"How many weeks of paid parental leave do employees have?", "up to sixteen weeks of paid parental leave"},
		{"How far ahead is parental leave booked in the HR portal?", "Parental leave is requested in the HR portal two months ahead."}}
	topics[2].versionQ = [2]string{"How many vacation days a year did employees have under the leave policy of %d?", "Employees have %[2]d vacation days a year"}
	topics[3].note.id, topics[3].note.text = "chairs", "# Office chairs\n\nFrom facilities.\n\nAn ergonomic chair for the home office is lent by facilities and stays company property.\n\nFacilities deliver a lent chair within ten working days.\n"
	topics[3].noteQs = [2][2]string{
		{"Is an ergonomic chair for the home office reimbursed as equipment?", "An ergonomic chair for the home office is lent by facilities and stays company property."},
		{"How soon is a home office chair delivered?", "Facilities deliver a lent chair within ten working days."}}
	topics[3].versionQ = [2]string{"How much home office equipment is reimbursed a year under the equipment policy of %d?", "reimbursed up to %[3]d euros a year"}
	topics[4].note.id, topics[4].note.text = "cards", "# Company cards\n\nFrom finance.\n\nHolders of a company card attach each receipt in the card app within a week; no separate expense claim is needed.\n\nA company card has a monthly limit set by finance.\n"
	topics[4].noteQs = [2][2]string{
		{"Do I submit an expense claim with the receipt for a company card payment?", "no separate expense claim is needed"},
		{"Who sets the monthly limit of a company card for expenses?", "A company card has a monthly limit set by finance."}}
	topics[4].versionQ = [2]string{"Up to how many euros a person are customer meals expensed under the expense policy of %d?", "expensed up to %[2]d euros a person"}

	type question struct {
		ID       string `json:"id"`
		Doc      string `json:"doc"`
		Question string `json:"question"`
		Answer   string `json:"answer"`
	}
	var qs []question
	for _, t := range topics {
		for v := range 6 {
			year := 2020 + v
			a, b := t.figs(v)
			write(fmt.Sprintf("%s-%d.md", t.id, year), fmt.Sprintf(t.policy, year, a, b))
		}
		write(t.note.id+".md", t.note.text)
		for i, q := range t.noteQs {
			qs = append(qs, question{fmt.Sprintf("%s-note-%d", t.id, i+1), t.note.id, q[0], q[1]})
		}
		const v = 4 // the 2024 version
		a, b := t.figs(v)
		ans := fmt.Sprintf(t.versionQ[1], 0, a, b)
		qs = append(qs, question{t.id + "-version", fmt.Sprintf("%s-%d", t.id, 2020+v), fmt.Sprintf(t.versionQ[0], 2020+v), ans})
	}
	b, err := json.MarshalIndent(qs, "", " ")
	if err != nil {
		panic(err)
	}
	write("questions.json", string(b)+"\n")
}

func write(name, text string) {
	if err := os.WriteFile(name, []byte(strings.TrimLeft(text, "\n")), 0o644); err != nil {
		panic(err)
	}
}
