// Package testdoc holds the document that the adapters' tests and examples
// index: a short Markdown policy whose sections hold facts a question can
// name.
package testdoc

// Policy is a Markdown document of three sections under one title.
const Policy = `# Travel policy

## Ground transport

Employees take the train for trips under four hours. Taxis are allowed after 22:00 or with heavy luggage.

## Meals

The daily allowance for meals is 45 euros in Germany and 60 euros in Switzerland. Receipts are kept for six years.

## Hotels

Hotels are booked through the travel desk. A room costs at most 150 euros a night, 200 in Zurich and Geneva.`
