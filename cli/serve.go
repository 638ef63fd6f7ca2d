package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/signal"
	"time"

	"github.com/elcheck/elcheck/web"
	"github.com/urfave/cli/v2"
)

var (
	addrFlag = &cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "listen on `HOST:PORT`; port 0 picks a free one (default: 127.0.0.1:8080, this machine only)"}
	// serveNFlag is -n with the page's limit.
	serveNFlag = &cli.IntFlag{Name: nFlag.Name, Usage: fmt.Sprintf("the number `N` of processes, 1 to %d (required)", web.MaxN)}
)

var serveCommand = &cli.Command{
	Name:            "serve",
	Usage:           "serve a page for stepping through the protocol's executions in a browser",
	UsageText:       fmt.Sprintf("elcheck serve -algo=cr-flip -n=4 [-ids=...] [-initiators=...] [-orientation=any] [-channels=bag] [-addr=127.0.0.1:8080] (n at most %d)", web.MaxN),
	Flags:           []cli.Flag{algoFlag, serveNFlag, idsFlag, initiatorsFlag, orientFlag, channelsFlag, capacityFlag, addrFlag},
	Action:          serveAction,
	OnUsageError:    usageError,
	HideHelpCommand: true, // a stray "help" argument is an error, not help (help.go)
}

func serveAction(c *cli.Context) error {
	m, err := parseMachine(c)
	if err != nil {
		return err
	}
	if !c.IsSet(nFlag.Name) {
		return usagef("missing -n: the number of processes, 1 to %d", web.MaxN)
	}
	n := c.Int(nFlag.Name)
	if n < 1 || n > web.MaxN {
		return usagef("-n=%d is out of range: the page runs 1 to %d processes (a person steps through it, and its jumps search while one waits); use elcheck verify for larger n", n, web.MaxN)
	}
	space, err := parseSpace(c, m.Info(), n)
	if err != nil {
		return err
	}
	h, err := web.New(m, space)
	if err != nil {
		return usagef("%v", err)
	}
	ln, err := net.Listen("tcp", c.String(addrFlag.Name))
	if err != nil {
		return usagef("-addr=%s: %s", c.String(addrFlag.Name), oneLine(err))
	}
	ctx, stop := signal.NotifyContext(c.Context, stopSignals...)
	defer stop()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	addr := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(c.App.Writer, "elcheck serve %s, n=%d: open %s (Ctrl-C stops it)\n", m.Info().Name, n, addr)
	if l := envOf(c).listening; l != nil {
		l(addr, stop) // tests find a port 0 server and stop it
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return internalf("serving: %v", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return internalf("stopping: %v", err)
	}
	return nil
}
