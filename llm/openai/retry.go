package openai

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retry runs try until it succeeds, fails for good, the retries run out
// or the Deadline is up. Between attempts it waits as the server asked
// (Retry-After) or by exponential backoff with full jitter, and stops the
// moment ctx is done. try gets the time its attempt may take: Timeout,
// or what is left of the Deadline if that is less.
func (c *Client) retry(ctx context.Context, path string, try func(ctx context.Context, timeout time.Duration) error) error {
	start := time.Now()
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := try(ctx, min(c.cfg.Timeout, c.cfg.Deadline-time.Since(start)))
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		wait, ok := c.retryWait(err, attempt)
		if !ok {
			return giveUp(err, attempt)
		}
		if time.Since(start)+wait >= c.cfg.Deadline {
			return errorf("%w: no answer within the Deadline (%v) after %d attempts: %w", ErrTimeout, c.cfg.Deadline, attempt+1, err)
		}
		if c.cfg.Logger != nil {
			c.cfg.Logger.LogAttrs(ctx, slog.LevelWarn, "openai: retrying",
				slog.String("path", path), slog.Int("attempt", attempt+1),
				slog.Duration("wait", wait), slog.String("error", c.clean(err.Error(), maxErrorText)))
		}
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// giveUp returns err, noting the attempts made if there were several.
func giveUp(err error, attempt int) error {
	if attempt == 0 {
		return err
	}
	return errorf("%w (gave up after %d attempts)", err, attempt+1)
}

// retryWait says whether err is worth another attempt after attempt
// (from 0) and how long to wait first.
func (c *Client) retryWait(err error, attempt int) (time.Duration, bool) {
	if c.cfg.NoRetries || attempt >= c.cfg.MaxRetries {
		return 0, false
	}
	var apiErr *APIError
	switch {
	case errors.As(err, &apiErr):
		if !apiErr.retryable {
			return 0, false
		}
		if apiErr.RetryAfter > 0 {
			if apiErr.RetryAfter > c.cfg.MaxRetryAfter {
				return 0, false
			}
			// A little jitter on top, so that the requests a server
			// turned away together do not all come back together.
			return apiErr.RetryAfter + rand.N(c.cfg.BackoffBase/4+1), true
		}
	case errors.Is(err, ErrTimeout), errors.Is(err, ErrConnection):
	default:
		return 0, false
	}
	return c.backoff(attempt), true
}

// backoff returns a random wait in [0, min(BackoffMax, BackoffBase·2^attempt)].
func (c *Client) backoff(attempt int) time.Duration {
	ceiling := c.cfg.BackoffMax
	if attempt < 62 && c.cfg.BackoffBase <= c.cfg.BackoffMax>>attempt {
		ceiling = c.cfg.BackoffBase << attempt
	}
	return rand.N(ceiling + 1)
}

// retryAfter reads how long the server asks the client to wait: OpenAI's
// retry-after-ms (milliseconds), else Retry-After in seconds or as an
// HTTP date. A date in the past means no wait.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < math.MaxInt64/float64(time.Millisecond) {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		if n > math.MaxInt64/int64(time.Second) {
			return math.MaxInt64, true
		}
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
