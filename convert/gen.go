package convert

//go:generate go run ../internal/gen -o zconv.go
