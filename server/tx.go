package server

import "github.com/kvserver/kvserver/command"

// txState is a client's transaction state: MULTI's queue and WATCH's keys (command.Tx). It is
// made on the client's first MULTI or WATCH and kept until the client closes.
type txState = command.Tx

// NewTx is command.TxConn's: the client's transaction state, made on first use.
func (c *client) NewTx() *command.Tx {
	if t := c.tx.Load(); t != nil {
		return t
	}
	t := command.NewTx()
	c.tx.Store(t)
	return t
}

// endTx ends the client's transaction, if any, and unwatches its keys (RESET, close): whoever
// serves the client calls it.
func (c *client) endTx() {
	if t := c.tx.Load(); t != nil {
		t.Discard(c.srv.ks)
	}
}
