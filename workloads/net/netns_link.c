// SPDX-License-Identifier: GPL-2.0
/*
 * netns_link.c - the veth pair and its addresses, through libnl-route-3.
 *
 * Every request goes through a NETLINK_ROUTE socket created inside the namespace it
 * acts on (netns_socket), so the devices are created where they live: the veth is made
 * in namespace A with its peer placed straight into B (IFLA_NET_NS_FD inside
 * VETH_INFO_PEER) and never appears in the root namespace, not even for an instant.
 */
#define DEFERBENCH_ALLOW_NETNS_INT_H
#include "netns_int.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>

#include <netlink/errno.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include <netlink/route/neighbour.h>
#include <netlink/socket.h>

#include "msg.h"

/* nl_errno - libnl's NLE_* codes back to the -errno the project returns */
static int nl_errno(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case 0: return 0;
	case NLE_NOMEM: return -ENOMEM;
	case NLE_EXIST: return -EEXIST;
	case NLE_INVAL: case NLE_RANGE: case NLE_MISSING_ATTR: return -EINVAL;
	case NLE_OPNOTSUPP: case NLE_MSGTYPE_NOSUPPORT: return -EOPNOTSUPP;
	case NLE_OBJ_NOTFOUND: case NLE_NODEV: return -ENODEV;
	case NLE_BUSY: return -EBUSY;
	case NLE_PERM: case NLE_NOACCESS: return -EPERM;
	case NLE_AGAIN: return -EAGAIN;
	case NLE_AF_NOSUPPORT: return -EAFNOSUPPORT;
	default: return -EIO;
	}
}

/* rt_open - an rtnetlink socket of @side's namespace, wrapped for libnl */
static int rt_open(const struct netns_pair *p, enum netns_side side, struct nl_sock **out)
{
	struct sockaddr_nl local = { .nl_family = AF_NETLINK };
	struct nl_sock *sk;
	int fd, err;

	fd = netns_socket(p, side, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (fd < 0)
		return fd;
	/* bound here so that libnl reads the kernel-chosen port id back */
	if (bind(fd, (struct sockaddr *)&local, sizeof(local))) {
		err = -errno;
		close(fd);
		return err;
	}
	sk = nl_socket_alloc();
	if (!sk) {
		close(fd);
		return -ENOMEM;
	}
	err = nl_socket_set_fd(sk, NETLINK_ROUTE, fd);
	if (err < 0) {
		close(fd);
		nl_socket_free(sk);
		return nl_errno(err);
	}
	*out = sk;
	return 0;
}

int netns_link_create(struct netns_pair *p, char *errbuf)
{
	struct rtnl_link *link = NULL, *peer;
	struct nl_sock *sk;
	int err;

	err = rt_open(p, NETNS_A, &sk);
	if (err)
		return set_err(errbuf, "rtnetlink socket: %s", strerror(-err)), err;
	link = rtnl_link_veth_alloc();
	if (!link) {
		err = -ENOMEM;
		goto out_free_sock;
	}
	peer = rtnl_link_veth_get_peer(link);
	rtnl_link_set_name(link, p->ifname[NETNS_A]);
	rtnl_link_set_name(peer, p->ifname[NETNS_B]);
	rtnl_link_set_ns_fd(peer, p->nsfd[NETNS_B]);
	rtnl_link_put(peer);
	err = nl_errno(rtnl_link_add(sk, link, NLM_F_CREATE | NLM_F_EXCL));
	if (err)
		set_err(errbuf, "cannot create veth %s/%s: %s", p->ifname[NETNS_A],
			p->ifname[NETNS_B], strerror(-err));
	else
		p->have_veth = true;
	rtnl_link_veth_release(link);
out_free_sock:
	nl_socket_free(sk);
	return err;
}

/* link_get - the kernel's view of a device, by name; caller puts the link */
static int link_get(struct nl_sock *sk, const char *name, struct rtnl_link **out)
{
	return nl_errno(rtnl_link_get_kernel(sk, 0, name, out));
}

/* link_up - set IFF_UP on a device of the socket's namespace */
static int link_up(struct nl_sock *sk, const char *name)
{
	struct rtnl_link *orig, *change;
	int err;

	err = link_get(sk, name, &orig);
	if (err)
		return err;
	change = rtnl_link_alloc();
	if (!change) {
		rtnl_link_put(orig);
		return -ENOMEM;
	}
	rtnl_link_set_flags(change, IFF_UP);
	err = nl_errno(rtnl_link_change(sk, orig, change, 0));
	rtnl_link_put(change);
	rtnl_link_put(orig);
	return err;
}

/* addr_add - @a/@prefixlen on @ifindex */
static int addr_add(struct nl_sock *sk, int ifindex, struct in_addr a, unsigned int prefixlen)
{
	struct rtnl_addr *ra = rtnl_addr_alloc();
	struct nl_addr *local = nl_addr_build(AF_INET, &a, sizeof(a));
	int err = -ENOMEM;

	if (ra && local) {
		nl_addr_set_prefixlen(local, (int)prefixlen);
		rtnl_addr_set_ifindex(ra, ifindex);
		err = nl_errno(rtnl_addr_set_local(ra, local));
		if (!err)
			err = nl_errno(rtnl_addr_add(sk, ra, NLM_F_CREATE | NLM_F_EXCL));
	}
	nl_addr_put(local);
	rtnl_addr_put(ra);
	return err;
}

/*
 * neigh_add - a permanent ARP entry for the peer: no ARP exchange delays the first
 * request and no neighbour re-probing adds packets to a long measurement.
 */
static int neigh_add(struct nl_sock *sk, int ifindex, struct in_addr ip, struct nl_addr *mac)
{
	struct rtnl_neigh *n = rtnl_neigh_alloc();
	struct nl_addr *dst = nl_addr_build(AF_INET, &ip, sizeof(ip));
	int err = -ENOMEM;

	if (n && dst) {
		rtnl_neigh_set_family(n, AF_INET);
		rtnl_neigh_set_ifindex(n, ifindex);
		rtnl_neigh_set_lladdr(n, mac);
		rtnl_neigh_set_state(n, NUD_PERMANENT);
		err = nl_errno(rtnl_neigh_set_dst(n, dst));
		if (!err)
			err = nl_errno(rtnl_neigh_add(sk, n, NLM_F_CREATE | NLM_F_REPLACE));
	}
	nl_addr_put(dst);
	if (n)
		rtnl_neigh_put(n);
	return err;
}

/* side_up - lo and the veth end up, the end addressed; its link returned for the MAC */
static int side_up(struct netns_pair *p, enum netns_side side, struct nl_sock *sk,
		   struct rtnl_link **link, char *errbuf)
{
	const char *name = p->ifname[side];
	int err;

	err = link_up(sk, "lo");
	if (err)
		return set_err(errbuf, "cannot bring lo up: %s", strerror(-err)), err;
	err = link_get(sk, name, link);
	if (err)
		return set_err(errbuf, "%s: %s", name, strerror(-err)), err;
	p->ifindex[side] = rtnl_link_get_ifindex(*link);
	err = addr_add(sk, p->ifindex[side], p->addr[side], p->prefixlen);
	if (err)
		return set_err(errbuf, "cannot address %s: %s", name, strerror(-err)), err;
	err = link_up(sk, name);
	if (err)
		return set_err(errbuf, "cannot bring %s up: %s", name, strerror(-err)), err;
	return 0;
}

int netns_link_configure(struct netns_pair *p, char *errbuf)
{
	struct rtnl_link *link[2] = { NULL, NULL };
	struct nl_sock *sk[2] = { NULL, NULL };
	int err, s;

	for (s = NETNS_A; s <= NETNS_B; s++) {
		err = rt_open(p, s, &sk[s]);
		if (err) {
			set_err(errbuf, "rtnetlink socket: %s", strerror(-err));
			goto out;
		}
		err = side_up(p, s, sk[s], &link[s], errbuf);
		if (err)
			goto out;
	}
	for (s = NETNS_A; s <= NETNS_B; s++) {
		err = neigh_add(sk[s], p->ifindex[s], p->addr[!s], rtnl_link_get_addr(link[!s]));
		if (err) {
			set_err(errbuf, "cannot add the neighbour entry on %s: %s", p->ifname[s],
				strerror(-err));
			goto out;
		}
	}
out:
	for (s = NETNS_A; s <= NETNS_B; s++) {
		if (link[s])
			rtnl_link_put(link[s]);
		if (sk[s])
			nl_socket_free(sk[s]);
	}
	return err;
}

int netns_link_delete(struct netns_pair *p)
{
	struct rtnl_link *link;
	struct nl_sock *sk;
	int err;

	err = rt_open(p, NETNS_A, &sk);
	if (err)
		return err;
	link = rtnl_link_alloc();
	if (!link) {
		nl_socket_free(sk);
		return -ENOMEM;
	}
	/* deleting one end of a veth deletes its peer, in whatever namespace it is */
	rtnl_link_set_name(link, p->ifname[NETNS_A]);
	err = nl_errno(rtnl_link_delete(sk, link));
	rtnl_link_put(link);
	nl_socket_free(sk);
	return err == -ENODEV ? 0 : err;
}

int netns_link_drops(const struct netns_pair *p, enum netns_side side, uint64_t *drops)
{
	struct rtnl_link *link;
	struct nl_sock *sk;
	int err;

	err = rt_open(p, side, &sk);
	if (err)
		return err;
	err = link_get(sk, p->ifname[side], &link);
	if (!err) {
		/* veth counts a full peer ring (and a peer that is down) as tx_dropped */
		*drops = rtnl_link_get_stat(link, RTNL_LINK_TX_DROPPED) +
			 rtnl_link_get_stat(link, RTNL_LINK_RX_DROPPED);
		rtnl_link_put(link);
	}
	nl_socket_free(sk);
	return err;
}
