package server

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// authCommands is AUTH (HELLO AUTH is in helloCommand, with the connection family).
func authCommands() []*command.Command {
	return []*command.Command{
		{Name: "auth", Handler: clientCommand(authCommand)},
	}
}

// authCommand: AUTH [username] password (acl.c authCommand). The one-argument form is for the
// default user and is an error when it is nopass; a failed AUTH leaves the client as it was.
func authCommand(c *client, args querybuf.Args) {
	if args.Len() > 3 {
		c.w.Error(replyerr.Syntax.Error())
		return
	}
	user, pass := []byte(defaultUser), args.Arg(1)
	if args.Len() == 2 {
		if d := c.srv.acl.reg.Default(); d != nil && d.NoPass() {
			c.w.Error(errAuthNoPass.Error())
			return
		}
	} else {
		user, pass = args.Arg(1), args.Arg(2)
	}
	if !c.authenticate(args.Arg(0), user, pass) {
		c.w.Error(errWrongPass.Error())
		return
	}
	c.w.OK()
}

// helloAuthOrReply is HELLO's authentication step, after its options are parsed: user and
// pass are the AUTH option's (nil without it), cmdName HELLO as typed (the ACL LOG's object). It replies with the error and returns false
// when HELLO must stop.
func (c *client) helloAuthOrReply(cmdName, user, pass []byte) bool {
	if user != nil && !c.authenticate(cmdName, user, pass) {
		c.w.Error(errWrongPass.Error())
		return false
	}
	if !c.authenticated.Load() {
		c.w.Error(errHelloNoAuth.Error())
		return false
	}
	return true
}
