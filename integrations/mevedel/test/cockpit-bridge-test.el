;;; cockpit-bridge-test.el --- ERT tests of the mevedel bridge against a real cockpit -*- lexical-binding: t -*-

;;; Commentary:

;; Run by integrations/mevedel/test/run.mjs (a suite of `npm test'), which starts a real cockpit server, registers a
;; workspace, creates an agent token and signs a person in; the environment carries COCKPIT_URL, COCKPIT_TOKEN and
;; the person's session (COCKPIT_TEST_COOKIE, COCKPIT_TEST_ORIGIN).  mevedel's queue is the stand-in in
;; mevedel-stand-in.el (its names and signatures are mevedel's own).

;;; Code:

(require 'ert)
(require 'json)
(require 'url)
(require 'url-http)
(require 'mevedel-stand-in)
(require 'cockpit-bridge)

(defvar url-http-end-of-headers)
(defvar url-http-response-status)

(setq cockpit-bridge-poll-interval 0.2)
(cockpit-bridge-mode 1)

(defun cbt--wait (pred &optional seconds)
  "Run timers and network callbacks until PRED holds or SECONDS (default 60) pass; return PRED's value."
  (let ((deadline (+ (float-time) (or seconds 60))) value)
    (while (and (not (setq value (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    value))

(defun cbt--sleep (seconds)
  "Let timers and callbacks run for SECONDS."
  (cbt--wait (lambda () nil) seconds))

(defun cbt--http (method path &optional body)
  "A person's request (session cookie, same origin), synchronous: (STATUS . JSON)."
  (let ((url-request-method method)
        (url-request-extra-headers
         `(("Cookie" . ,(getenv "COCKPIT_TEST_COOKIE"))
           ("Origin" . ,(getenv "COCKPIT_TEST_ORIGIN"))
           ,@(when body '(("Content-Type" . "application/json")))))
        (url-request-data (and body (encode-coding-string (json-encode body) 'utf-8))))
    (with-current-buffer (url-retrieve-synchronously (concat (getenv "COCKPIT_URL") path) t t 60)
      (prog1
          (cons url-http-response-status
                (let ((text (decode-coding-string
                             (buffer-substring-no-properties url-http-end-of-headers (point-max)) 'utf-8)))
                  (unless (string-blank-p text)
                    (let ((json-object-type 'alist) (json-array-type 'list) (json-key-type 'symbol))
                      (json-read-from-string text)))))
        (kill-buffer)))))

(defun cbt--cards (&optional status)
  "The cockpit's cards (collaborator API)."
  (alist-get 'cards (cdr (cbt--http "GET" (format "/api/v1/cards?status=%s&limit=200" (or status "all"))))))

(defun cbt--card-for (entry &optional status)
  "The cockpit card mirroring ENTRY (by its permission id), or nil."
  (cl-find (plist-get entry :permission-id) (cbt--cards status)
           :key (lambda (c) (alist-get 'permission_id (alist-get 'input c))) :test #'equal))

(defun cbt--answer (card outcome &optional message)
  "Answer CARD in the cockpit as the signed-in person."
  (cbt--http "POST" (format "/api/v1/cards/%s/answer" (alist-get 'id card))
             `((outcome . ,outcome) (remember . "once") (hash . ,(alist-get 'hash card))
               ,@(when message `((message . ,message))))))

(defvar cbt--session (mevedel-session--create :name "ert-session"))

(defun cbt--enqueue (command &optional callback)
  "Admit a Bash card for COMMAND, as mevedel's Bash adapter does."
  (mevedel-permission--enqueue
   (list :kind 'bash :tool-name "Bash" :command command :specifier-key :pattern :specifier-value command
         :origin "/root" :permission-mode-base 'ask :permission-mode-effective 'ask :command-class 'unknown
         :callback callback)
   cbt--session))

(defun cbt--settled (entry)
  "The settlements mevedel saw for ENTRY."
  (cl-remove-if-not (lambda (s) (equal (car s) (plist-get entry :permission-id))) mevedel-stand-in--settlements))

(ert-deftest cockpit-bridge-posts-the-complete-card-and-settles-an-allow-once ()
  (let* ((got nil)
         (entry (cbt--enqueue "make test" (lambda (o) (push o got))))
         (card (cbt--wait (lambda () (cbt--card-for entry "pending")))))
    (should card)
    (should (equal (alist-get 'tool card) "Bash"))
    (should (equal (alist-get 'agent card) "mevedel"))
    (should (equal (alist-get 'command (alist-get 'input card)) "make test"))
    ;; The descriptor a browser collaborator reads travels with the card.
    (should (string-match-p "Permission mode at admission: ask" (alist-get 'agent_card (alist-get 'input card))))
    (should (equal (car (cbt--answer card "allow")) 200))
    (should (cbt--wait (lambda () got)))
    (should (equal got '(allow-once)))
    (should (equal (nth 2 (car (cbt--settled entry))) cockpit-bridge-guest-name))
    ;; Exactly once: later ticks settle nothing more.
    (cbt--sleep 1.5)
    (should (equal got '(allow-once)))
    (should (= (length (cbt--settled entry)) 1))
    (should-not (mevedel-session-permission-queue cbt--session))))

(ert-deftest cockpit-bridge-a-deny-with-a-message-is-feedback ()
  (let* ((got nil)
         (entry (cbt--enqueue "npm publish" (lambda (o) (push o got))))
         (card (cbt--wait (lambda () (cbt--card-for entry "pending")))))
    (should card)
    (should (equal (car (cbt--answer card "deny" "publish from CI only")) 200))
    (should (cbt--wait (lambda () got)))
    (should (equal got '((feedback . "publish from CI only"))))))

(ert-deftest cockpit-bridge-answered-in-emacs-first-aborts-the-cockpit-card ()
  (let* ((entry (cbt--enqueue "make deploy"))
         (card (cbt--wait (lambda () (cbt--card-for entry "pending"))))
         (view (mevedel-stand-in-view))
         (ov (with-current-buffer view
               (gethash (mevedel-queue--entry-metadata-get (car (mevedel-session-permission-queue cbt--session))
                                                           :interaction-id)
                        mevedel-view--interaction-overlays))))
    (should card)
    (should (overlayp ov))
    ;; The person presses the deny key in Emacs.
    (with-current-buffer view (mevedel--prompt--settle ov 'deny-once))
    (let ((aborted (cbt--wait (lambda ()
                                (let ((c (cbt--card-for entry)))
                                  (and c (equal (alist-get 'status c) "aborted") c))))))
      (should aborted)
      (should (equal (alist-get 'message (alist-get 'settlement aborted)) "answered elsewhere")))
    (should (equal (cadr (car (cbt--settled entry))) 'deny-once))
    (should (= (length (cbt--settled entry)) 1))))

(ert-deftest cockpit-bridge-an-answer-for-a-waiting-card-settles-it-when-it-becomes-the-head ()
  (let* ((first (cbt--enqueue "make one"))
         (second (cbt--enqueue "make two"))
         (card2 (cbt--wait (lambda () (cbt--card-for second "pending")))))
    (should (cbt--wait (lambda () (cbt--card-for first "pending"))))
    (should card2)
    (should (equal (car (cbt--answer card2 "allow")) 200))
    ;; Only the head is shown: the answer waits.
    (cbt--sleep 1.5)
    (should-not (cbt--settled second))
    ;; The head is answered in Emacs; the second card becomes the head and takes the cockpit's answer.
    (let ((ov (with-current-buffer (mevedel-stand-in-view)
                (gethash (mevedel-queue--entry-metadata-get (car (mevedel-session-permission-queue cbt--session))
                                                            :interaction-id)
                         mevedel-view--interaction-overlays))))
      (with-current-buffer (mevedel-stand-in-view) (mevedel--prompt--settle ov 'allow-once)))
    (should (cbt--wait (lambda () (cbt--settled second))))
    (should (equal (cadr (car (cbt--settled second))) 'allow-once))
    (should (equal (mapcar #'car (seq-take mevedel-stand-in--settlements 2))
                   (list (plist-get second :permission-id) (plist-get first :permission-id))))))

(ert-deftest cockpit-bridge-an-unreachable-cockpit-changes-nothing-locally ()
  (let* ((cockpit-bridge-url "http://127.0.0.1:9")
         (got nil)
         (started (float-time))
         (entry (cbt--enqueue "make offline" (lambda (o) (push o got)))))
    ;; Admission never waits for the network.
    (should (< (- (float-time) started) 0.5))
    (cbt--sleep 1.5)
    (should (mevedel-session-permission-queue cbt--session))
    (let ((ov (with-current-buffer (mevedel-stand-in-view)
                (gethash (mevedel-queue--entry-metadata-get entry :interaction-id) mevedel-view--interaction-overlays))))
      (should (overlayp ov))
      (with-current-buffer (mevedel-stand-in-view) (mevedel--prompt--settle ov 'allow-once)))
    (should (equal got '(allow-once)))
    (should-not (mevedel-session-permission-queue cbt--session))))

(ert-deftest cockpit-bridge-keeps-the-notify-function-set-before-it ()
  (let ((seen nil))
    (cockpit-bridge-mode -1)
    (setq mevedel-permission-notify-function (lambda (entry) (push (plist-get entry :command) seen)))
    (cockpit-bridge-mode 1)
    (unwind-protect
        (let ((entry (cbt--enqueue "make notify")))
          (should (equal seen '("make notify")))
          (should (cbt--wait (lambda () (cbt--card-for entry "pending"))))
          (let ((ov (with-current-buffer (mevedel-stand-in-view)
                      (gethash (mevedel-queue--entry-metadata-get entry :interaction-id)
                               mevedel-view--interaction-overlays))))
            (with-current-buffer (mevedel-stand-in-view) (mevedel--prompt--settle ov 'deny-once))))
      (cockpit-bridge-mode -1)
      (should (functionp mevedel-permission-notify-function))
      (setq mevedel-permission-notify-function nil)
      (cockpit-bridge-mode 1))))

(provide 'cockpit-bridge-test)

;;; cockpit-bridge-test.el ends here
