// The task board's front end: plain DOM, the JSON API, and an EventSource for live changes.
"use strict";

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body instanceof FormData) {
    init.body = body;                      // the browser writes multipart/form-data and its boundary
  } else if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (res.status === 401) {
    location.href = "/login.html";
    throw new Error("not logged in");
  }
  if (!res.ok) {
    const problem = await res.json().catch(() => ({ title: res.statusText }));
    throw new Error(problem.title + (problem.detail ? ": " + problem.detail : ""));
  }
  return res.status === 204 ? null : res.json();
}

function render(tasks) {
  const list = document.getElementById("tasks");
  const template = document.getElementById("task");
  list.replaceChildren(...tasks.map((t) => {
    const li = template.content.firstElementChild.cloneNode(true);
    li.dataset.id = t.id;
    li.classList.toggle("is-done", t.done);
    li.querySelector(".title").textContent = t.title;
    li.querySelector(".owner").textContent = "by " + t.owner;
    const done = li.querySelector(".done");
    done.checked = t.done;
    done.onchange = () => api("PATCH", "/api/tasks/" + t.id, { done: done.checked }).catch(show);
    li.querySelector(".delete").onclick = () => api("DELETE", "/api/tasks/" + t.id).catch(show);
    li.querySelector(".files").replaceChildren(...t.attachments.map((a) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "/api/tasks/" + t.id + "/attachments/" + encodeURIComponent(a.name);
      link.textContent = a.name + " (" + a.size + " bytes)";
      link.title = "SHA-256 " + a.sha256;
      item.append(link);
      return item;
    }));
    li.querySelector(".attach").onsubmit = (e) => {
      e.preventDefault();
      const data = new FormData();
      for (const f of li.querySelector(".file").files) {
        data.append("file", f, f.name);
      }
      api("POST", "/api/tasks/" + t.id + "/attachments", data).catch(show);
    };
    return li;
  }));
}

function show(error) {
  document.getElementById("live").textContent = String(error.message || error);
}

async function refresh() {
  render(await api("GET", "/api/tasks"));
}

document.getElementById("new-task").onsubmit = async (e) => {
  e.preventDefault();
  const title = document.getElementById("title");
  await api("POST", "/api/tasks", { title: title.value }).catch(show);
  title.value = "";
};

(async () => {
  document.getElementById("me").textContent = (await api("GET", "/api/me")).user;
  await refresh();
  const events = new EventSource("/api/events");
  events.onopen = () => { document.getElementById("live").textContent = "live"; };
  events.addEventListener("task", () => refresh().catch(show));
  events.onerror = () => { document.getElementById("live").textContent = "reconnecting…"; };
})().catch(show);
